import { describe, expect, it } from "vitest";
import { composeReply, greetingName, replyLanguage, replyReasons, type ReplyFacts } from "./compose";

const base: ReplyFacts = {
  author: "Anna K.",
  rating: 2,
  language: "en",
  critical: false,
  negative: ["waiting_time", "food"],
  positive: ["ambience"],
};

describe("reply drafts: which reviews need an answer", () => {
  it("asks for a low rating, a negative category or a health-and-safety case, and never once the owner replied", () => {
    const facts = { rating: 5, critical: false, negative: [] as string[], positive: ["food"], ownerReplied: false };
    expect(replyReasons(facts)).toEqual([]);
    expect(replyReasons({ ...facts, rating: 3 })).toEqual(["low_rating"]);
    expect(replyReasons({ ...facts, rating: 4 })).toEqual([]);
    expect(replyReasons({ ...facts, rating: null, negative: ["price"] })).toEqual(["negative"]);
    expect(replyReasons({ ...facts, critical: true })).toEqual(["critical"]);
    expect(replyReasons({ ...facts, rating: 1, negative: ["food"], critical: true })).toEqual([
      "low_rating",
      "negative",
      "critical",
    ]);
    expect(replyReasons({ ...facts, rating: 1, negative: ["food"], critical: true, ownerReplied: true })).toEqual([]);
    // Unknown category ids are not complaints.
    expect(replyReasons({ ...facts, negative: ["parking"] })).toEqual([]);
  });
});

describe("reply drafts: templates", () => {
  it("English: greets by name, names the complaints in the taxonomy's order, thanks for the praise", () => {
    const r = composeReply(base);
    expect(r).toMatchObject({ language: "en", fallbackFrom: null });
    expect(r.text.startsWith("Dear Anna K.,\n\n")).toBe(true);
    expect(r.text).toContain("what you say about the food and the waiting time");
    expect(r.text).toContain("We are glad that you appreciated the atmosphere.");
    expect(r.text).not.toContain("health and safety");
    expect(r.text.endsWith("Kind regards,\nThe team")).toBe(true);
  });

  it("Spanish: greeting, categories by their Spanish names, praise", () => {
    const r = composeReply({ ...base, language: "es", author: "Lucía", negative: ["price", "service", "food"] });
    expect(r.language).toBe("es");
    expect(r.text.startsWith("Hola, Lucía:\n\n")).toBe(true);
    expect(r.text).toContain("sobre la comida, el servicio y los precios");
    expect(r.text).toContain("Nos alegra leer sus palabras sobre el ambiente.");
    expect(r.text).toContain("Un cordial saludo");
  });

  it("German: one category with 'zum Thema', several with 'zu den Themen'", () => {
    const one = composeReply({ ...base, language: "de", author: "Jonas", negative: ["cleanliness"], positive: [] });
    expect(one.text.startsWith("Hallo Jonas,\n\nvielen Dank")).toBe(true);
    expect(one.text).toContain("was Sie zum Thema Sauberkeit schreiben");
    const two = composeReply({ ...base, language: "de", author: null });
    expect(two.text.startsWith("Guten Tag,\n\n")).toBe(true);
    expect(two.text).toContain("was Sie zu den Themen Essen und Wartezeit schreiben");
    expect(two.text).toContain("Über Ihr Lob zum Thema Ambiente freuen wir uns sehr.");
  });

  it("a health-and-safety case gets its own sentence in each language and no praise", () => {
    const critical = { ...base, critical: true };
    expect(composeReply(critical).text).toContain("the health and safety of our guests come first");
    expect(composeReply({ ...critical, language: "es" }).text).toContain(
      "la salud y la seguridad de nuestros clientes",
    );
    expect(composeReply({ ...critical, language: "de" }).text).toContain("Die Gesundheit und Sicherheit unserer Gäste");
    expect(composeReply(critical).text).not.toContain("appreciated");
    expect(composeReply({ ...critical, language: "es" }).text).not.toContain("Nos alegra");
    expect(composeReply({ ...critical, language: "de" }).text).not.toContain("Lob");
  });

  it("a low rating without a named category gets the general apology", () => {
    const r = composeReply({ ...base, negative: [], positive: [], rating: 1 });
    expect(r.text).toContain("did not live up to your expectations");
    expect(composeReply({ ...base, language: "de", negative: [], positive: [], rating: 1 }).text).toContain(
      "nicht Ihren Erwartungen entsprochen",
    );
  });

  it("is deterministic: the same facts give the same text, whatever the order of the categories", () => {
    const a = composeReply(base);
    const b = composeReply({ ...base, negative: ["food", "waiting_time"] });
    expect(b).toEqual(a);
    expect(composeReply(base)).toEqual(a);
  });

  it("falls back to English for other languages and says from which", () => {
    expect(composeReply({ ...base, language: "fr" })).toMatchObject({ language: "en", fallbackFrom: "fr" });
    expect(composeReply({ ...base, language: null })).toMatchObject({ language: "en", fallbackFrom: "unknown" });
    expect(composeReply({ ...base, language: "fr" }).text).toContain("the food and the waiting time");
  });

  it("takes the platform's language when the detector cannot know it, else the detected one", () => {
    expect(replyLanguage("de", "fr")).toBe("fr");
    expect(replyLanguage("es", "en")).toBe("es");
    expect(replyLanguage("unknown", "de-AT")).toBe("de");
    expect(replyLanguage(null, null)).toBeNull();
  });

  it("uses a reviewer's name only when it names someone, on one line and bounded", () => {
    expect(greetingName("  Anna \n K. ")).toBe("Anna K.");
    expect(greetingName("Anonymous")).toBeNull();
    expect(greetingName("anónimo")).toBeNull();
    expect(greetingName("")).toBeNull();
    expect(greetingName("x".repeat(100))).toHaveLength(60);
    expect(composeReply({ ...base, author: "Anonymous" }).text.startsWith("Hello,\n\n")).toBe(true);
  });
});

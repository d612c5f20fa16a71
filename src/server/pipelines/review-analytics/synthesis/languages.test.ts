// Issue 21: the deterministic narrative in every report language keeps the report's guarantees:
// every number is a cited fact written in the language's style, the same facts give the same text,
// and the Spanish and German texts hold no English template words and no taxonomy codes.
import { describe, expect, it } from "vitest";
import { aggregate } from "../aggregate";
import { classify } from "../classify";
import { labelRows } from "../evidence";
import { generateReviews } from "../generator";
import { normalize } from "../normalize";
import { route } from "../route";
import { CATEGORIES, OWNER_TEAMS } from "../taxonomy";
import { EvidenceBook, formatClaim, LINK_FIELDS } from "./citations";
import { writeDeterministic, writeLinked } from "./deterministic-writer";
import { buildFacts } from "./facts";
import { NARRATIVE_LANGUAGES, REPORT_LANGUAGES } from "./lang";
import { allowedNumbers, formatNumber, inventedNumbers, numbersIn } from "./numbers";
import type { TNarrative } from "./narrative";
import { narrativeIn, narrativeInEnglish } from "./report";
import { sectionTexts } from "./section-texts";
import { synthesize } from "./synthesize";
import { labelledDevReviews, rng } from "@/test/analytics-runs";

const labelled = labelledDevReviews;

/** A generated execution with label rows, two places (one named) and, on odd seeds, a previous run to compare with. */
function run(seed: number) {
  const rand = rng(seed);
  const picked = labelled
    .filter(() => rand() < 0.2)
    .map((r, i) => ({ ...r, origin: "https://a.test", placeKey: i % 3 ? "casa-a" : "casa-b" }));
  const raw = [...picked, ...generateReviews({ count: Math.floor(rand() * 200), seed })];
  const routed = route(classify(normalize(raw).output).output).output;
  const agg = aggregate(routed, raw.length).output;
  const rows = labelRows(routed, raw, agg.complaint_phrases);
  const places = [
    { name: "Casa A", place_key: "casa-a", origin: "https://a.test", reviews: 9 },
    { name: null, place_key: "casa-b", origin: "https://a.test", reviews: 4 },
  ];
  const previous =
    seed % 2
      ? {
          execution_id: "01a20000-0000-7000-8000-000000000000",
          finished_at: "2026-11-20T10:00:00.000Z",
          totals: {
            reviews: agg.totals.reviews + 1234,
            average_rating: 4.9,
            positive_pct: agg.totals.positive_pct,
            negative_pct: 1.5,
            critical_reviews: 0,
          },
        }
      : null;
  return { agg, rows, facts: buildFacts(agg, places, previous) };
}

const SEEDS = Array.from({ length: 8 }, (_, i) => i + 1);
const all = (n: TNarrative) =>
  LINK_FIELDS.flatMap((field) => (typeof n[field] === "string" ? [n[field] as string] : (n[field] as string[])));
/** A text without the guests' words (quotes and complaint phrases): those stay in the review's language. */
const ownWords = (text: string) => text.replace(/"[^"]*"|‘[^’]*’/g, " ");

describe.each(REPORT_LANGUAGES)("the narrative in %s", (code) => {
  const L = NARRATIVE_LANGUAGES[code];

  it.each(SEEDS)(
    "seed %i: is the same for the same facts, every number is a computed value, every figure is linked where written",
    (seed) => {
      const { agg, rows, facts } = run(seed);
      const book = new EvidenceBook(rows);
      const { narrative, links } = writeLinked(facts, book.citeIn, code);
      expect(narrative).toEqual(writeDeterministic(facts, code));
      expect(writeDeterministic(buildFacts(agg, facts.places, null), code)).toEqual(
        writeDeterministic(buildFacts(agg, facts.places, null), code),
      );
      const allowed = allowedNumbers(facts);
      for (const text of all(narrative)) expect(inventedNumbers(text, allowed, L.numbers), text).toEqual([]);
      for (const l of links) {
        const text = l.index === null ? (narrative[l.field] as string) : (narrative[l.field] as string[])[l.index]!;
        expect(text.slice(l.start, l.end), l.ref).toBe(formatClaim(book.entries[l.ref]!, L.numbers));
      }
      // Numbers left unlinked are scales, star buckets, list positions, clock times, timeframes or the guests' words.
      const timeframes = (["high", "medium", "low"] as const).map((level) => L.timeframe(level));
      for (const field of LINK_FIELDS) {
        const texts =
          typeof narrative[field] === "string" ? [narrative[field] as string] : (narrative[field] as string[]);
        texts.forEach((text, i) => {
          const index = typeof narrative[field] === "string" ? null : i;
          let rest = text;
          for (const l of links.filter((x) => x.field === field && x.index === index).sort((a, b) => b.start - a.start))
            rest = rest.slice(0, l.start) + " ".repeat(l.end - l.start) + rest.slice(l.end);
          for (const t of timeframes) rest = rest.split(t).join(" ");
          // "(action 3)": the plan refers to the action matrix's rows by their number.
          const unlinked = numbersIn(
            ownWords(rest).replace(/\b\d+:00\b|^\d+\. |\((?:action|acción|Maßnahme) \d+\)/g, " "),
            L.numbers,
          );
          expect(
            unlinked.filter((n) => !["5", "-1", "1", "4", "2", "100"].includes(n)),
            text,
          ).toEqual([]);
        });
      }
    },
  );

  it.each(SEEDS)(
    "seed %i: the action matrix's actions and timeframes and the issue summaries: computed numbers, English as the sections store it",
    (seed) => {
      const { facts } = run(seed);
      const texts = sectionTexts(facts, code);
      expect(texts.action_matrix).toHaveLength(facts.actions.length);
      expect(texts.critical_summaries).toHaveLength(facts.critical.length);
      const allowed = allowedNumbers(facts);
      for (const text of [...texts.action_matrix.map((x) => x.action), ...texts.critical_summaries])
        expect(inventedNumbers(ownWords(text), allowed, L.numbers), text).toEqual([]);
      if (code === "en") {
        expect(texts.action_matrix).toEqual(facts.actions.map((a) => ({ action: a.action, timeframe: a.timeframe })));
        expect(texts.critical_summaries).toEqual(facts.critical.map((c) => c.summary));
      }
    },
  );

  it("cites the same figures as English: one evidence serves every language", () => {
    const { rows, facts } = run(3);
    const english = new EvidenceBook(rows);
    writeLinked(facts, english.citeIn, "en");
    const book = new EvidenceBook(rows);
    writeLinked(facts, book.citeIn, code);
    expect(Object.keys(book.entries).sort()).toEqual(Object.keys(english.entries).sort());
    expect(() => writeLinked(facts, english.citeIn, code)).not.toThrow();
  });

  it("names every category, team, risk level and review language, never by its code", () => {
    for (const c of CATEGORIES) expect(L.category(c)).not.toMatch(/_/);
    for (const t of Object.values(OWNER_TEAMS)) expect(L.team(t)).not.toMatch(/_/);
    for (const l of ["en", "es", "de"]) expect(L.language(l)).not.toBe(l);
    if (code !== "en") {
      expect(CATEGORIES.map((c) => L.category(c))).not.toEqual(
        CATEGORIES.map((c) => NARRATIVE_LANGUAGES.en.category(c)),
      );
      expect((["high", "medium", "low"] as const).map((l) => L.level(l))).not.toEqual(["high", "medium", "low"]);
    }
  });
});

describe("Spanish and German narratives", () => {
  const ENGLISH = [
    /\b(reviews?|mentions?|texts|stars|places?)\b/,
    /were analysed/,
    /average rating/,
    /biggest risk/,
    /strongest asset/,
    /health-and-safety/,
    /\bnext (2 weeks|30 days|quarter)\b/,
    /\bLead with\b/,
    /\bFix\b/,
    /\bRead the\b/,
    /\bSince the previous run\b/,
    /\bn\/a\b/,
    /\b(the|of|and|with)\b/,
  ];

  it.each(SEEDS.flatMap((seed) => [["es", seed] as const, ["de", seed] as const]))(
    "%s, seed %i: no English template words, no taxonomy codes",
    (code, seed) => {
      const { facts } = run(seed);
      const sections = sectionTexts(facts, code);
      const texts = [
        ...all(writeDeterministic(facts, code)),
        ...sections.action_matrix.flatMap((x) => [x.action, x.timeframe]),
        ...sections.critical_summaries,
      ];
      for (const text of texts.map(ownWords)) {
        for (const word of ENGLISH) expect(text, `${word} in ${text}`).not.toMatch(word);
        expect(text).not.toMatch(/front_of_house|waiting_time|_/);
      }
    },
  );

  it("write numbers with a decimal comma and a thousands point (Spanish from five digits), shares with a no-break space", () => {
    const { es, de } = NARRATIVE_LANGUAGES;
    expect([
      formatNumber(1234, es.numbers),
      formatNumber(12345, es.numbers),
      formatNumber(1234, de.numbers),
      formatNumber(-0.25, de.numbers),
    ]).toEqual(["1234", "12.345", "1.234", "-0,25"]);
    expect(formatClaim({ value: 48.5, unit: "%" }, de.numbers)).toBe("48,5\u00a0%");
    expect(numbersIn("1.234 Bewertungen, 48,5 % am 2026-03 um 14:00", de.numbers)).toEqual([
      "1234",
      "48.5",
      "2026",
      "3",
      "14",
      "0",
    ]);
    const { facts } = run(1);
    expect(writeDeterministic(facts, "es").narrative).toMatch(/^En Casa A y 1 local más, de [a-z]+ de \d{4} a /);
    expect(writeDeterministic(facts, "de").narrative).toMatch(/^Für Casa A und 1 weiteren Ort wurden von /);
    expect(writeDeterministic(facts, "de").narrative).toContain(
      `die Zahl der Bewertungen sank von ${formatNumber(facts.aggregates.totals.reviews + 1234, de.numbers)} auf`,
    );
  });
});

describe("synthesize stores the narrative in every language", () => {
  it("with its own links, English also in the top-level fields", async () => {
    const { agg, rows, facts } = run(2);
    const report = (
      await synthesize(agg, { now: () => new Date("2026-07-01T08:00:00Z"), places: facts.places, labels: rows })
    ).output;
    expect(Object.keys(report.narratives ?? {})).toEqual(["en", "es", "de"]);
    const { links: enLinks, ...en } = report.narratives!.en!;
    expect(en.headline).toBe(report.executive_summary.headline);
    expect(en.narrative).toBe(report.executive_summary.narrative);
    expect(en.action_plan).toEqual(report.action_plan);
    expect(enLinks).toEqual(report.links);
    expect(en.action_matrix).toEqual(report.action_matrix.map((a) => ({ action: a.action, timeframe: a.timeframe })));
    expect(en.critical_summaries).toEqual(report.critical_issues.map((c) => c.summary));
    expect(report.narratives!.es!.action_matrix?.map((a) => a.timeframe)).toEqual(
      sectionTexts(facts, "es").action_matrix.map((a) => a.timeframe),
    );
    for (const code of ["es", "de"] as const) {
      const n = report.narratives![code]!;
      expect(n.headline).toBe(writeDeterministic(facts, code).headline);
      expect(n.links?.length).toBeGreaterThan(0);
      for (const l of n.links!) expect(report.evidence?.[l.ref], l.ref).toBeDefined();
    }
    expect(report.narratives!.es!.headline).toMatch(/reseñas/);
    expect(report.narratives!.de!.headline).toMatch(/Bewertungen/);
    // Without label rows: the texts, no links.
    const plain = (await synthesize(agg, { now: () => new Date("2026-07-01T08:00:00Z") })).output;
    expect(plain.narratives?.es?.links).toBeUndefined();
    expect(plain.narratives?.es?.headline).toBe(report.narratives!.es!.headline);
  });
});

describe("the report page's narrative (narrativeIn)", () => {
  it("takes the locale's stored narrative, else the English top-level texts (older reports, other locales)", async () => {
    const { agg, rows } = run(4);
    const report = (await synthesize(agg, { now: () => new Date("2026-07-01T08:00:00Z"), labels: rows })).output;
    expect(narrativeIn(report, "de")).toEqual(report.narratives?.de);
    const { narratives: _omitted, ...older } = report;
    const fallback = narrativeIn(older, "es");
    expect(fallback.headline).toBe(report.executive_summary.headline);
    expect(fallback.action_plan).toEqual(report.action_plan);
    expect(fallback.links).toEqual(report.links);
    expect(narrativeIn(report, "fr").headline).toBe(report.executive_summary.headline);
  });
});

describe("the report page's note on an English narrative (narrativeInEnglish)", () => {
  it("is shown only where the page's locale has no narrative of its own", async () => {
    const { agg, rows } = run(4);
    const report = (await synthesize(agg, { now: () => new Date("2026-07-01T08:00:00Z"), labels: rows })).output;
    expect(narrativeInEnglish("v2", report, "de")).toBe(false);
    expect(narrativeInEnglish("v2", report, "es")).toBe(false);
    expect(narrativeInEnglish("v2", report, "en")).toBe(false);
    const { narratives: _omitted, ...older } = report;
    expect(narrativeInEnglish("v2", older, "de")).toBe(true);
    expect(narrativeInEnglish("v2", older, "en")).toBe(false);
    expect(narrativeInEnglish("v1", {}, "es")).toBe(true);
    expect(narrativeInEnglish("unknown", {}, "es")).toBe(false);
  });
});

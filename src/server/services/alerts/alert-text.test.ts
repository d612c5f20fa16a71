import { describe, expect, it } from "vitest";
import { alertMessage, alertText } from "./alert-text";
import { alertWebhookBody } from "./deliver-alerts";
import type { AlertPayload } from "./fire-alerts";

const base: AlertPayload = {
  rule: { id: "r1", name: null, kind: "low_rating", threshold: 2, category: null },
  place: {
    platform: "demo",
    origin: "http://127.0.0.1:4500",
    place_key: "trattoria",
    name: "Trattoria Roma",
    id: "p1",
  },
  review: {
    id: "v1",
    external_id: "x1",
    rating: 1,
    author: "Ana",
    language: "es",
    text: "La comida llegó fría\ny el camarero fue grosero.",
    published_at: "2026-12-01T10:00:00.000Z",
    negative_categories: ["food", "service"],
    health_and_safety: false,
  },
  share: null,
  teams: ["kitchen", "front_of_house"],
  execution_id: "e1",
  links: { run: "/pipelines/review-analytics/executions/e1", place: "/engine/places/p1" },
};

/** Spaces as a reader sees them (Intl writes narrow and no-break spaces around percent signs). */
const plain = (s: string | undefined) => s?.replace(/[\u00a0\u202f]/g, " ");

describe("alert words", () => {
  it("say the stars, the place, the review, the complaints by category, the teams and the links in each language", () => {
    const en = alertText(base, "en", "https://reviews.example.test/");
    expect(en.subject).toBe("New 1-star review of Trattoria Roma");
    expect(en.lines).toContain("“La comida llegó fría y el camarero fue grosero.”");
    expect(en.lines).toContain("Complaints about: food, service");
    expect(en.lines).toContain("For: @kitchen, @front_of_house");
    expect(en.links[0]?.url).toBe("https://reviews.example.test/en/pipelines/review-analytics/executions/e1");
    const es = alertText(base, "es", "https://reviews.example.test");
    expect(es.subject).toBe("Nueva reseña de 1 estrella de Trattoria Roma");
    expect(es.lines).toContain("Quejas sobre: comida, servicio");
    expect(es.links[1]?.url).toBe("https://reviews.example.test/es/engine/places/p1");
    const de = alertText({ ...base, review: { ...base.review!, rating: 2 } }, "de", "https://x.test");
    expect(de.subject).toBe("Neue 2-Sterne-Bewertung von Trattoria Roma");
    expect(de.lines).toContain("Beschwerden über: Essen, Service");
  });

  it("name a health-and-safety case as such, and a share's rise with the locale's percentages", () => {
    const health = alertText(
      {
        ...base,
        rule: { ...base.rule, kind: "health_safety", threshold: null },
        review: { ...base.review!, health_and_safety: true, rating: 4 },
      },
      "en",
      "https://x.test",
    );
    expect(health.subject).toBe("Health-and-safety case in a new review of Trattoria Roma");
    const share: AlertPayload = {
      ...base,
      rule: { ...base.rule, kind: "negative_share_rise", threshold: 20, category: "food" },
      review: null,
      share: { category: "food", previous_pct: 12.5, current_pct: 31, rise_points: 18.5, previous_execution_id: "e0" },
      teams: ["kitchen"],
    };
    expect(plain(alertText(share, "en", "https://x.test").lines[0])).toBe(
      "Negative mentions rose from 12.5% to 31% (+18.5 points) since the previous run.",
    );
    expect(plain(alertText(share, "de", "https://x.test").lines[0])).toBe(
      "Negative Erwähnungen stiegen seit der vorigen Analyse von 12,5 % auf 31 % (+18,5 Punkte).",
    );
    const message = plain(alertMessage(share, "es", "https://x.test")) ?? "";
    expect(message.split("\n")[0]).toBe("⚠ Más quejas sobre comida en Trattoria Roma");
    expect(message).toContain("Las menciones negativas subieron del 12,5 % al 31 % (+18,5 puntos)");
  });

  it("keep the subject on one line whatever the place is called", () => {
    const text = alertText({ ...base, place: { ...base.place, name: "Evil\r\nBcc: x@y" } }, "en", "https://x.test");
    expect(text.subject).not.toMatch(/[\r\n]/);
  });
});

describe("alert webhook body", () => {
  it("is Standard Webhooks' {type, timestamp, data} with the evidence linked in the rule's language", () => {
    const at = new Date("2026-12-02T12:00:00.000Z");
    const body = JSON.parse(alertWebhookBody({ payload: base, locale: "de" }, "https://reviews.example.test/", at)) as {
      type: string;
      timestamp: string;
      data: AlertPayload;
    };
    expect(body.type).toBe("review.alert");
    expect(body.timestamp).toBe("2026-12-02T12:00:00.000Z");
    expect(body.data.review?.id).toBe("v1");
    expect(body.data.links).toEqual({
      run: "https://reviews.example.test/de/pipelines/review-analytics/executions/e1",
      place: "https://reviews.example.test/de/engine/places/p1",
    });
  });
});

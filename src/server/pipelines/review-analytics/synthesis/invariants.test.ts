// Issue 20, point 6: the report's invariants as properties over generated executions: random mixes of
// the labelled reviews (realistic texts) and generated ones, in random sizes and seeds.
import { describe, expect, it } from "vitest";
import { aggregate, quoteAgrees } from "../aggregate";
import { classify } from "../classify";
import { generateReviews } from "../generator";
import { normalize } from "../normalize";
import { route } from "../route";
import { labelRows, matchesFilter } from "../evidence";
import { EvidenceBook, formatClaim, LINK_FIELDS, type LinkField } from "./citations";
import { writeDeterministic, writeLinked } from "./deterministic-writer";
import { buildFacts } from "./facts";
import { allowedNumbers, inventedNumbers, numbersIn } from "./numbers";
import type { TNarrative } from "./narrative";
import type { Language } from "../language";
import { topicsOfSentence } from "../topics";
import { TOPIC_VOCABULARY, type Topic } from "../topic-vocabulary";
import { labelledDevReviews, rng } from "@/test/analytics-runs";

const labelled = labelledDevReviews;

function execution(seed: number) {
  const rand = rng(seed);
  const picked = labelled.filter(() => rand() < 0.3);
  const raw = [...picked, ...generateReviews({ count: Math.floor(rand() * 200), seed })];
  const classified = classify(normalize(raw).output).output;
  const routed = route(classified).output;
  const agg = aggregate(routed, raw.length).output;
  return { raw, classified, routed, agg };
}

const SEEDS = Array.from({ length: 25 }, (_, i) => i + 1);

describe("report invariants over generated executions", () => {
  it.each(SEEDS)("seed %i: critical reviews are counted once each, mentions per category separately", (seed) => {
    const { classified, routed, agg } = execution(seed);
    const critical = classified.filter((r) => r.text && r.critical);
    expect(agg.totals.critical_reviews).toBe(critical.length);
    // Per category, critical issues are at most one per review: their sum can exceed the reviews, never the other way.
    const perCategory = agg.categories.reduce((n, c) => n + c.issues.critical, 0);
    expect(perCategory).toBe(routed.issues.filter((i) => i.severity === "critical").length);
    expect(
      new Set(routed.issues.filter((i) => i.severity === "critical").map((i) => i.review_id)).size,
    ).toBeLessThanOrEqual(critical.length);
    const narrative = writeDeterministic(buildFacts(agg)).narrative;
    if (critical.length)
      expect(narrative).toContain(
        `${critical.length.toLocaleString("en-US")} review${critical.length === 1 ? " reports" : "s report"} a health-and-safety problem`,
      );
    else expect(narrative).toContain("No review reports a health-and-safety problem.");
  });

  it.each(SEEDS)("seed %i: every quote's review carries the claimed label and a mention of that polarity", (seed) => {
    const { classified, agg } = execution(seed);
    const byId = new Map(classified.map((r) => [r.id, r]));
    for (const [category, sides] of Object.entries(agg.quotes)) {
      for (const polarity of ["positive", "negative"] as const) {
        for (const q of sides[polarity]) {
          const review = byId.get(q.review_id);
          expect(review, q.review_id).toBeDefined();
          expect(quoteAgrees(review!.label, polarity), `${q.review_id} (${review!.label}) quoted as ${polarity}`).toBe(
            true,
          );
          expect(review!.mentions.some((m) => m.category === category && m.polarity === polarity)).toBe(true);
        }
      }
    }
  });

  it.each(SEEDS)("seed %i: every number of the narrative is a computed value", (seed) => {
    const { agg } = execution(seed);
    const facts = buildFacts(agg);
    const n = writeDeterministic(facts);
    const allowed = allowedNumbers(facts);
    for (const text of [
      n.headline,
      n.narrative,
      ...n.sentiment_insights,
      ...n.category_insights,
      ...n.timeline_insights,
      ...n.action_plan,
      ...n.marketing_angles,
      ...n.priority_recommendations,
    ]) {
      expect(inventedNumbers(text, allowed), text).toEqual([]);
    }
    // The shares add up: positive + negative + neutral + mixed = texts.
    const t = agg.totals;
    expect(t.positive + t.negative + t.neutral + t.mixed).toBe(t.with_text);
  });

  it.each(SEEDS.slice(0, 5))(
    "seed %i: names the place and the period, and derives each action from a complaint topic of its category",
    (seed) => {
      const { agg } = execution(seed);
      const facts = buildFacts(agg, [
        { name: null, place_key: "k2", reviews: 3 },
        { name: "Casa Pepe", place_key: "k1", reviews: 10 },
      ]);
      const n = writeDeterministic(facts);
      expect(n.narrative).toMatch(
        /^For Casa Pepe and 1 other place, from ([A-Z][a-z]+ \d{4}|n\/a) to ([A-Z][a-z]+ \d{4}|n\/a), /,
      );
      expect(facts.actions.some((a) => a.topic)).toBe(true);
      for (const a of facts.actions) {
        if (!a.topic) {
          expect(agg.topics?.[a.category] ?? []).toEqual([]);
          expect(a.action).toMatch(/^Read the \d+ negative/);
          continue;
        }
        const topic = a.topic as Topic;
        const stat = agg.topics?.[a.category]?.find((t) => t.topic === topic);
        expect(TOPIC_VOCABULARY[topic].category).toBe(a.category);
        expect(stat?.reviews).toBe(a.reviews);
        expect(a.action).toBe(
          `${TOPIC_VOCABULARY[topic].action.en}: ${a.reviews} ${a.reviews === 1 ? "review mentions" : "reviews mention"} it`,
        );
      }
    },
  );

  it.each(SEEDS)("seed %i: each topic sits under its category with its count, evidence and quotes", (seed) => {
    const { raw, classified, routed, agg } = execution(seed);
    const byId = new Map(classified.map((r) => [r.id, r]));
    const rows = labelRows(routed, raw, agg.complaint_phrases);
    for (const [category, topics] of Object.entries(agg.topics ?? {}))
      for (const t of topics) {
        expect(TOPIC_VOCABULARY[t.topic].category).toBe(category);
        expect(t.label).toBe(TOPIC_VOCABULARY[t.topic].label.en);
        expect(t.review_ids.length).toBe(Math.min(20, t.reviews));
        expect(t.quotes.length).toBe(Math.min(2, t.reviews));
        // The evidence of a topic's count is exactly its reviews.
        const counted = rows.filter((row) => matchesFilter(row, { topic: { topic: t.topic } }));
        expect(counted.length).toBe(t.reviews);
        expect(new Set(t.review_ids).size).toBe(t.review_ids.length);
        for (const id of t.review_ids) expect(counted.some((row) => row.review_id === id)).toBe(true);
        for (const q of t.quotes) {
          const review = byId.get(q.review_id)!;
          const sentence = review.sentences.find((s) => s.text.startsWith(q.text.replace(/…$/, "")));
          expect(sentence, q.text).toBeDefined();
          expect(topicsOfSentence(sentence!.text, review.language as Language).map((h) => h.topic)).toContain(t.topic);
        }
      }
  });

  it.each(SEEDS)(
    "seed %i: no action is said twice, and no top risk is called the strongest asset without its issues",
    (seed) => {
      const { agg } = execution(seed);
      const facts = buildFacts(agg);
      const n = writeDeterministic(facts);
      const actions = facts.actions.map((a) => a.action);
      expect(new Set(actions).size).toBe(actions.length);
      const bare = (text: string) => text.replace(/: \d+ reviews? mentions? it$/, "");
      for (const line of [...n.action_plan, ...n.priority_recommendations, n.narrative, ...n.marketing_angles])
        for (const a of facts.actions) expect(line).not.toContain(bare(a.action));
      for (const line of n.priority_recommendations) expect(line).not.toMatch(/^Fix /);
      const atRisk = new Set(
        facts.scorecard.filter((r) => r.risk_level !== "low" || r.critical_issues > 0).map((r) => r.category),
      );
      for (const s of facts.strengths) expect(atRisk.has(String(s.category))).toBe(false);
      const strongest = /The strongest asset is ([a-z ]+), praised/.exec(n.narrative)?.[1];
      if (strongest) {
        const category = strongest.replace(/ /g, "_");
        expect(category).not.toBe(facts.scorecard[0]?.category);
        const stat = agg.categories.find((c) => c.category === category)!;
        if (stat.issues.high + stat.issues.critical > 0) expect(n.narrative).toContain("though it also has");
        for (const c of facts.critical.filter((x) => x.category === category))
          expect(c.summary).toMatch(/praise it\.$/);
      }
    },
  );

  it("compares with the previous run of the same places: directions and numbers are computed", () => {
    const { agg } = execution(4);
    const previous = {
      execution_id: "01a20000-0000-7000-8000-000000000000",
      finished_at: "2026-11-20T10:00:00.000Z",
      totals: {
        reviews: agg.totals.reviews + 10,
        average_rating: 4.9,
        positive_pct: agg.totals.positive_pct,
        negative_pct: 1.5,
        critical_reviews: 0,
      },
    };
    const facts = buildFacts(agg, [], previous);
    const byMetric = new Map(facts.comparison?.metrics.map((m) => [m.metric, m]));
    expect(byMetric.get("reviews")).toMatchObject({ direction: "down", change: 10 });
    expect(byMetric.get("positive_pct")).toMatchObject({ direction: "same", change: 0 });
    expect(byMetric.get("critical_reviews")?.direction).toBe(agg.totals.critical_reviews > 0 ? "up" : "same");
    const n = writeDeterministic(facts);
    expect(n.narrative).toContain(
      `Since the previous run of these places (2026-11-20): the number of reviews went down from ${(agg.totals.reviews + 10).toLocaleString("en-US")} to ${agg.totals.reviews.toLocaleString("en-US")}`,
    );
    expect(n.narrative).toContain(`the positive share stayed at ${agg.totals.positive_pct}%`);
    expect(inventedNumbers(n.narrative, allowedNumbers(facts))).toEqual([]);
    expect(writeDeterministic(buildFacts(agg)).narrative).not.toContain("Since the previous run");
  });
});

describe("every figure of the narrative carries the reviews it counts", () => {
  const linkedRun = (seed: number) => {
    const rand = rng(seed);
    const picked = labelled
      .filter(() => rand() < 0.3)
      .map((r, i) => ({ ...r, origin: "https://a.test", placeKey: i % 3 ? "casa-a" : "casa-b" }));
    const raw = [...picked, ...generateReviews({ count: Math.floor(rand() * 200), seed })];
    const routed = route(classify(normalize(raw).output).output).output;
    const agg = aggregate(routed, raw.length).output;
    const rows = labelRows(routed, raw, agg.complaint_phrases);
    const places = [
      {
        name: "Casa A",
        place_key: "casa-a",
        origin: "https://a.test",
        reviews: rows.filter((r) => r.place_key === "casa-a").length,
      },
      {
        name: null,
        place_key: "casa-b",
        origin: "https://a.test",
        reviews: rows.filter((r) => r.place_key === "casa-b").length,
      },
    ];
    const facts = buildFacts(agg, places);
    const book = new EvidenceBook(rows);
    return { raw, rows, facts, book, ...writeLinked(facts, book.citeIn) };
  };
  const textOf = (n: TNarrative, field: LinkField, index: number | null) =>
    index === null ? (n[field] as string) : (n[field] as string[])[index]!;

  it.each(SEEDS)("seed %i: links sit on the figures as written, and counts of reviews are their reviews", (seed) => {
    const { raw, rows, facts, book, narrative, links } = linkedRun(seed);
    expect(rows).toHaveLength(new Set(raw.map((r) => r.id)).size);
    // Citing changes nothing of the text.
    expect(narrative).toEqual(writeDeterministic(facts));
    for (const l of links)
      expect(textOf(narrative, l.field, l.index).slice(l.start, l.end), l.ref).toBe(formatClaim(book.entries[l.ref]!));
    for (const [ref, e] of Object.entries(book.entries)) {
      expect(e.review_ids.length, ref).toBe(Math.min(20, e.reviews));
      if (e.unit === "reviews") expect(e.reviews, ref).toBe(e.value);
      // A share of reviews is its reviews over its base.
      if (e.unit === "%" && e.of && e.of.reviews > 0 && !ref.startsWith("category."))
        expect(Math.abs((100 * e.reviews) / e.of.reviews - e.value), ref).toBeLessThan(0.051);
    }
  });

  it.each(SEEDS)(
    "seed %i: every number left unlinked is a scale, a bucket, a position, a timeframe or in a quote",
    (seed) => {
      const { narrative, links } = linkedRun(seed);
      for (const field of LINK_FIELDS) {
        const texts =
          typeof narrative[field] === "string" ? [narrative[field] as string] : (narrative[field] as string[]);
        texts.forEach((text, i) => {
          const index = typeof narrative[field] === "string" ? null : i;
          const mine = links.filter((l) => l.field === field && l.index === index);
          let rest = text;
          for (const l of [...mine].sort((a, b) => b.start - a.start))
            rest = rest.slice(0, l.start) + " ".repeat(l.end - l.start) + rest.slice(l.end);
          // Quotes are the guests' words, not figures.
          const unlinked = numbersIn(
            rest.replace(/"[^"]*"|‘[^’]*’|\b\d+:00\b|\bnext \d+ (days|weeks)\b|^\d+\. |\(action \d+\)/g, " "),
          );
          expect(
            unlinked.filter((n) => !["5", "-1", "1", "4", "2", "100"].includes(n)),
            text,
          ).toEqual([]);
        });
      }
    },
  );
});

import { describe, expect, it } from "vitest";
import { createDataset } from "./generate";
import { LANGUAGES } from "./phrases";
import { createRng } from "./prng";
import { pageOf, selectReviews } from "./query";
import { effectiveLayout } from "./settings";

const options = { seed: 42, places: 12, anchor: new Date("2026-11-01T00:00:00Z") };
const snapshot = (seed: number) => {
  const d = createDataset({ ...options, seed });
  return JSON.stringify({ places: d.places, reviews: d.places.map((p) => d.reviews(p.id)) });
};

describe("seeded generation", () => {
  it("gives the same places and reviews for the same seed, and others for another seed", () => {
    expect(snapshot(42)).toBe(snapshot(42));
    expect(snapshot(43)).not.toBe(snapshot(42));
  });

  it("the generator repeats its sequence per seed", () => {
    const a = createRng(7, "x");
    const b = createRng(7, "x");
    const draws = Array.from({ length: 50 }, () => a.int(1, 6));
    expect(Array.from({ length: 50 }, () => b.int(1, 6))).toEqual(draws);
    expect(new Set(draws)).toEqual(new Set([1, 2, 3, 4, 5, 6]));
  });

  const dataset = createDataset(options);
  const all = dataset.places.flatMap((p) => dataset.reviews(p.id));

  it("has both layouts (p-0001 layout 1, p-0002 layout 2), the special places, and unique review ids", () => {
    expect(dataset.place("p-0001")?.layout).toBe(1);
    expect(dataset.place("p-0002")?.layout).toBe(2);
    expect(dataset.places.map((p) => p.id)).toEqual(expect.arrayContaining(["p-blocked", "p-slow", "p-flaky"]));
    expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
    for (const p of dataset.places) expect(dataset.reviews(p.id)).toHaveLength(p.reviewCount);
  });

  it("writes reviews in en, es and de with ratings 1 to 5, owner replies, anonymous authors and text-less reviews", () => {
    expect(new Set(all.map((r) => r.language))).toEqual(new Set(LANGUAGES));
    expect(new Set(all.map((r) => r.rating))).toEqual(new Set([1, 2, 3, 4, 5]));
    expect(all.some((r) => r.ownerReply !== null)).toBe(true);
    expect(all.some((r) => r.author === null)).toBe(true);
    expect(all.some((r) => r.text === null)).toBe(true);
    for (const r of all) {
      expect(r.publishedAt.getTime()).toBeLessThanOrEqual(options.anchor.getTime());
      expect(r.ownerReply ?? "").not.toContain("{name}");
    }
  });

  it("keeps the text's sentiment in line with the rating", () => {
    for (const r of all) {
      const polarities = r.aspects.map((a) => a.polarity);
      if (r.rating === 5) expect(polarities.every((p) => p === "positive")).toBe(true);
      if (r.rating === 1) expect(polarities.every((p) => p === "negative")).toBe(true);
      if (r.text === null) expect(r.aspects).toEqual([]);
    }
    const texts = new Set(all.map((r) => r.text));
    expect(texts.size).toBeGreaterThan(all.length * 0.5);
  });
});

describe("selecting and paging reviews", () => {
  const dataset = createDataset(options);
  const reviews = dataset.reviews("p-0001");

  it("orders by each sort with a total order", () => {
    const newest = selectReviews(reviews, { sort: "newest" });
    expect(newest.map((r) => r.publishedAt.getTime())).toEqual(
      [...newest.map((r) => r.publishedAt.getTime())].sort((a, b) => b - a),
    );
    const highest = selectReviews(reviews, { sort: "highest" }).map((r) => r.rating);
    expect(highest).toEqual([...highest].sort((a, b) => b - a));
    const lowest = selectReviews(reviews, { sort: "lowest" }).map((r) => r.rating);
    expect(lowest).toEqual([...lowest].sort((a, b) => a - b));
    expect(selectReviews(reviews, { sort: "relevant" })).toHaveLength(reviews.length);
    expect(selectReviews(reviews, { sort: "relevant" })).toEqual(
      selectReviews([...reviews].reverse(), { sort: "relevant" }),
    );
  });

  it("filters by language and since", () => {
    const since = new Date("2026-06-01T00:00:00Z");
    const selected = selectReviews(reviews, { sort: "newest", lang: "es", since });
    expect(selected.length).toBeGreaterThan(0);
    expect(selected.every((r) => r.language === "es" && r.publishedAt >= since)).toBe(true);
    expect(selected).toHaveLength(reviews.filter((r) => r.language === "es" && r.publishedAt >= since).length);
  });

  it("pages without gaps or overlaps, and pages past the end are empty", () => {
    const selected = selectReviews(reviews, { sort: "newest" });
    const pages = Array.from({ length: Math.ceil(selected.length / 20) + 1 }, (_, i) => pageOf(selected, i + 1, 20));
    expect(pages.flatMap((p) => p.reviews)).toEqual(selected);
    expect(pages.at(-2)?.nextPage).toBeNull();
    expect(pages.at(-1)?.reviews).toEqual([]);
  });
});

describe("layout switch", () => {
  const settings = {
    layout: "per-place",
    latencyMs: 0,
    errorRate: 0,
    rateLimit: { capacity: 1, perMinute: 0 },
    places: {},
  } as const;
  it("uses the place's layout, the platform switch, then a place override", () => {
    expect(effectiveLayout(settings, "p-0002", 2)).toBe(2);
    expect(effectiveLayout({ ...settings, layout: "1" }, "p-0002", 2)).toBe(1);
    expect(effectiveLayout({ ...settings, layout: "1", places: { "p-0002": { layout: 2 } } }, "p-0002", 2)).toBe(2);
  });
});

describe("place activity", () => {
  it("adds reviews newer than every other, edits the newest, keeps the facts true, and is undone by restore", () => {
    const d = createDataset(options);
    const before = snapshot(42);
    const place = d.place("p-0001")!;
    const reviews0 = d.reviews("p-0001").slice();
    const newest = [...reviews0].sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime())[0]!;
    const now = new Date("2026-11-20T10:00:00Z");
    const done = d.activity("p-0001", { add: 5, edit: 1 }, now)!;
    expect(done.added).toEqual(["p-0001-n0001", "p-0001-n0002", "p-0001-n0003", "p-0001-n0004", "p-0001-n0005"]);
    expect(done.edited).toEqual([newest.id]);
    const after = d.reviews("p-0001");
    expect(after).toHaveLength(reviews0.length + 5);
    const added = after.filter((r) => done.added.includes(r.id));
    expect(added.every((r) => r.publishedAt.getTime() >= now.getTime())).toBe(true);
    const edited = after.find((r) => r.id === newest.id)!;
    expect(edited.text).toBe(`${newest.text ?? ""} (Edit: came back a second time, same impression.)`.trim());
    expect(edited.editedAt?.toISOString()).toBe(now.toISOString());
    expect(place.reviewCount).toBe(after.length);
    expect(place.histogram.reduce((a, b) => a + b, 0)).toBe(after.length);
    // Again: numbering goes on; an unknown place is null.
    expect(d.activity("p-0001", { add: 1, edit: 0 }, now)?.added).toEqual(["p-0001-n0006"]);
    expect(d.activity("nope", { add: 1, edit: 0 }, now)).toBeNull();
    d.restore();
    expect(JSON.stringify({ places: d.places, reviews: d.places.map((p) => d.reviews(p.id)) })).toBe(before);
  });
});

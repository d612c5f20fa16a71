import { describe, expect, it } from "vitest";
import { ScrapeError, type ScrapedReview } from "../types";
import { applyTarget, resolveTarget, targetParams } from "./target";

const ctx = { platformUrl: "http://127.0.0.1:4200" };
const base = { limit: 10, sort: "newest" as const };

describe("resolveTarget", () => {
  it("takes the place from a place URL (keeping demo knobs) or a platform id", () => {
    const fromUrl = resolveTarget({ ...base, placeUrl: "http://127.0.0.1:4200/places/p-0002?latency=50&utm=x" }, ctx);
    expect(fromUrl).toMatchObject({
      origin: "http://127.0.0.1:4200",
      placeId: "p-0002",
      placeKey: "demo-platform:p-0002",
    });
    expect(fromUrl.knobs.toString()).toBe("latency=50");
    expect(resolveTarget({ ...base, platformId: "p-0001" }, ctx)).toMatchObject({
      origin: "http://127.0.0.1:4200",
      placeId: "p-0001",
    });
  });

  it.each([
    [{ ...base }],
    [{ ...base, placeUrl: "not a url" }],
    [{ ...base, placeUrl: "ftp://x/places/p-1" }],
    [{ ...base, placeUrl: "http://127.0.0.1:4200/shops/p-1" }],
    // Off the platform's origin: another host, port or scheme, or credentials (target_not_allowed).
    [{ ...base, placeUrl: "http://localhost:4200/places/p-1" }],
    [{ ...base, placeUrl: "http://127.0.0.1:4201/places/p-1" }],
    [{ ...base, placeUrl: "https://127.0.0.1:4200/places/p-1" }],
    [{ ...base, placeUrl: "http://u:p@127.0.0.1:4200/places/p-1" }],
    [{ ...base, platformId: "../etc" }],
    [{ ...base, platformId: "p-1", limit: -1 }],
    [{ ...base, platformId: "p-1", since: new Date("nope") }],
  ])("refuses %j as invalid_target", (target) => {
    expect(() => resolveTarget(target, ctx)).toThrow(ScrapeError);
    try {
      resolveTarget(target, ctx);
    } catch (e) {
      expect((e as ScrapeError).errorClass).toBe("invalid_target");
    }
  });

  it("passes sort, language and since as query parameters", () => {
    const params = targetParams(
      { ...base, sort: "lowest", language: "ES", since: new Date("2026-01-01T00:00:00Z") },
      new URLSearchParams("layout=2"),
    );
    expect(params.toString()).toBe("layout=2&sort=lowest&lang=es&since=2026-01-01T00%3A00%3A00.000Z");
  });
});

describe("applyTarget", () => {
  const review = (id: string, language: string | null, day: string): ScrapedReview => ({
    externalId: id,
    author: null,
    rating: 3,
    text: null,
    language,
    publishedAt: new Date(`${day}T00:00:00Z`),
    ownerReply: null,
  });
  const reviews = [
    review("a", "en", "2026-05-01"),
    review("a", "en", "2026-05-01"),
    review("b", "es", "2026-04-01"),
    review("c", null, "2026-03-01"),
    review("d", "en", "2025-01-01"),
  ];

  it("drops duplicates, other languages and older reviews, and stops at the limit", () => {
    expect(applyTarget(reviews, { ...base }).map((r) => r.externalId)).toEqual(["a", "b", "c", "d"]);
    expect(applyTarget(reviews, { ...base, language: "en" }).map((r) => r.externalId)).toEqual(["a", "c", "d"]);
    expect(applyTarget(reviews, { ...base, since: new Date("2026-01-01") }).map((r) => r.externalId)).toEqual([
      "a",
      "b",
      "c",
    ]);
    expect(applyTarget(reviews, { ...base, limit: 2 }).map((r) => r.externalId)).toEqual(["a", "b"]);
  });
});

import { describe, expect, it } from "vitest";
import { parseRating, parseReviewDate, toScrapedReview, type RawCard } from "./parse";

describe("parseRating", () => {
  it.each([
    ["4 out of 5 stars", null, 4],
    ["Rated 2 out of 5", null, 2],
    ["3/5", null, 3],
    ["★★★★★", null, 5],
    [null, 1, 1],
    ["no rating", null, null],
    ["9 out of 5", null, null],
  ] as const)("%s (stars %s) is %s", (label, stars, expected) => {
    expect(parseRating(label, stars)).toBe(expected);
  });
});

describe("parseReviewDate", () => {
  it("reads ISO datetimes and Unix seconds", () => {
    expect(parseReviewDate("2025-03-03T10:20:30.000Z")?.toISOString()).toBe("2025-03-03T10:20:30.000Z");
    expect(parseReviewDate("1741000000")?.toISOString()).toBe(new Date(1741000000 * 1000).toISOString());
  });

  it.each([
    ["3 March 2025", "2025-03-03"],
    ["3 de marzo de 2025", "2025-03-03"],
    ["3. März 2025", "2025-03-03"],
    ["28 de diciembre de 2024", "2024-12-28"],
  ])("falls back to written dates: %s", (text, day) => {
    expect(parseReviewDate(null, text)?.toISOString().slice(0, 10)).toBe(day);
    expect(parseReviewDate("not a date", text)?.toISOString().slice(0, 10)).toBe(day);
  });

  it("gives null when nothing reads", () => {
    expect(parseReviewDate(null, "yesterday")).toBeNull();
    expect(parseReviewDate(null, "3 Brumaire 2025")).toBeNull();
  });
});

describe("toScrapedReview", () => {
  const raw: RawCard = {
    id: " p-1-r0001 ",
    author: "  Emma\n S. ",
    anonymous: false,
    ratingLabel: "4 out of 5 stars",
    filledStars: null,
    dateValue: "2025-01-02T03:04:05Z",
    dateText: null,
    text: " Great   food. ",
    language: "EN",
    ownerReply: "",
    replyDateValue: null,
    helpfulText: null,
    photos: [],
    reviewerHref: null,
    reviewerCountText: null,
    editedValue: null,
    originalText: null,
    originalLanguage: null,
  };

  it("cleans whitespace, lowercases the language, drops empty replies", () => {
    expect(toScrapedReview(raw)).toEqual({
      externalId: "p-1-r0001",
      author: "Emma S.",
      rating: 4,
      text: "Great food.",
      language: "en",
      publishedAt: new Date("2025-01-02T03:04:05Z"),
      ownerReply: null,
      datePrecision: "exact",
      ownerReplyAt: null,
      helpful: null,
      photos: [],
      reviewerUrl: null,
      reviewerReviewCount: null,
      editedAt: null,
      translatedText: null,
      translatedLanguage: null,
    });
  });

  it("reads the fields beside a review: translation (text stays the original), links on the origin only, votes, dates", () => {
    const r = toScrapedReview(
      {
        ...raw,
        text: "Great food.",
        language: "en",
        originalText: " Comida estupenda. ",
        originalLanguage: "es",
        photos: ["/photos/p-1-r0001-1.jpg", "https://elsewhere.example/x.jpg", "javascript:alert(1)"],
        reviewerHref: "/users/u00042",
        reviewerCountText: "12 reviews",
        helpfulText: "Useful (5)",
        replyDateValue: "1736000000",
        editedValue: "2025-02-01T00:00:00Z",
      },
      "http://127.0.0.1:4500",
    );
    expect(r).toMatchObject({
      text: "Comida estupenda.",
      language: "es",
      translatedText: "Great food.",
      translatedLanguage: "en",
      photos: ["http://127.0.0.1:4500/photos/p-1-r0001-1.jpg"],
      reviewerUrl: "http://127.0.0.1:4500/users/u00042",
      reviewerReviewCount: 12,
      helpful: 5,
      ownerReplyAt: new Date(1736000000 * 1000),
      editedAt: new Date("2025-02-01T00:00:00Z"),
    });
  });

  it("gives each date its precision: exact, a written day, or relative months and years", () => {
    const now = new Date("2026-06-15T12:00:00Z");
    const at = (dateValue: string | null, dateText: string | null) =>
      toScrapedReview({ ...raw, dateValue, dateText }, undefined, now);
    expect(at(null, "3 March 2025")).toMatchObject({
      publishedAt: new Date(Date.UTC(2025, 2, 3)),
      datePrecision: "day",
    });
    expect(at(null, "2 months ago")).toMatchObject({
      publishedAt: new Date("2026-04-15T12:00:00Z"),
      datePrecision: "month",
    });
    expect(at(null, "a year ago")).toMatchObject({
      publishedAt: new Date("2025-06-15T12:00:00Z"),
      datePrecision: "year",
    });
    expect(at(null, "3 weeks ago")).toMatchObject({
      publishedAt: new Date("2026-05-25T12:00:00Z"),
      datePrecision: "day",
    });
    expect(at(null, "yesterday-ish")).toMatchObject({ publishedAt: null });
  });

  it("gives anonymous authors as null and skips cards without an id", () => {
    expect(toScrapedReview({ ...raw, anonymous: true, author: "Anonymous" })?.author).toBeNull();
    expect(toScrapedReview({ ...raw, id: null })).toBeNull();
    expect(toScrapedReview({ ...raw, id: "  " })).toBeNull();
  });
});

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
    });
  });

  it("gives anonymous authors as null and skips cards without an id", () => {
    expect(toScrapedReview({ ...raw, anonymous: true, author: "Anonymous" })?.author).toBeNull();
    expect(toScrapedReview({ ...raw, id: null })).toBeNull();
    expect(toScrapedReview({ ...raw, id: "  " })).toBeNull();
  });
});

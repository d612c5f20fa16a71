import { describe, expect, it } from "vitest";
import { placeFacts } from "./layouts";

describe("place facts from a page header", () => {
  it("reads the numbers of each layout's texts", () => {
    expect(
      placeFacts({
        address: " High Street 12, London ",
        rating: "4.3 out of 5",
        reviewCount: " 231 reviews",
        histogram: ["10", "5", "20", "96", "100"],
      }),
    ).toEqual({
      address: "High Street 12, London",
      rating: 4.3,
      reviewCount: 231,
      histogram: [10, 5, 20, 96, 100],
    });
    expect(
      placeFacts({
        address: null,
        rating: "4,1",
        reviewCount: "87 ratings",
        histogram: [
          "3 reviews with 1 stars",
          "0 reviews with 2 stars",
          "9 reviews with 3 stars",
          "30 reviews with 4 stars",
          "45 reviews with 5 stars",
        ],
      }),
    ).toEqual({
      rating: 4.1,
      reviewCount: 87,
      histogram: [3, 0, 9, 30, 45],
    });
  });

  it("leaves out what the page does not show or shows unreadably", () => {
    expect(
      placeFacts({ address: "  ", rating: "7.5", reviewCount: "many", histogram: ["1", null, "3", "4", "5"] }),
    ).toEqual({});
    expect(placeFacts({ address: null, rating: null, reviewCount: "2.5 reviews", histogram: [] })).toEqual({});
  });
});

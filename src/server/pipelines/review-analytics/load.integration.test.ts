import { afterAll, describe, expect, it } from "vitest";
import { testDb, uid } from "@/test/helpers";
import { collectedJob, makeApiKey, TEST_ORIGIN } from "@/test/pipeline-fixtures";
import type { ReviewContent } from "@/server/services/reviews/review-store";
import { ZReviewAnalyticsInput } from "./input";
import { loadReviews } from "./load";

// The loader's selection within a scope (the scope itself: services/pipelines/ownership.integration.test.ts).
const db = testDb();
afterAll(() => db.$disconnect());

const review = (externalId: string, publishedAt: string, text = `Review ${externalId}`): ReviewContent => ({
  externalId,
  author: null,
  rating: 4,
  text,
  language: "en",
  publishedAt: new Date(publishedAt),
  ownerReply: null,
});

describe("loadReviews", () => {
  it("selects by day range (inclusive, UTC), origin and max_reviews, oldest first, the newest version of each review", async () => {
    const key = await makeApiKey(db, ["jobs:read"]);
    const place = uid("load");
    await collectedJob(db, {
      apiKeyId: key.id,
      placeKey: place,
      reviews: [
        review("a", "2026-02-28T23:59:59.999Z"),
        review("b", "2026-03-01T00:00:00.000Z"),
        review("c", "2026-03-31T23:59:59.999Z"),
        review("d", "2026-04-01T00:00:00.000Z"),
      ],
    });
    // The same place on another origin, and later an edited version of "c".
    await collectedJob(db, {
      apiKeyId: key.id,
      placeKey: place,
      origin: "http://127.0.0.1:4999",
      reviews: [review("e", "2026-03-10T00:00:00Z")],
    });
    await collectedJob(db, {
      apiKeyId: key.id,
      placeKey: place,
      reviews: [review("c", "2026-03-31T23:59:59.999Z", "Edited")],
    });

    const load = (input: Record<string, unknown>) =>
      loadReviews(db, ZReviewAnalyticsInput.parse({ place_key: place, ...input }), key.id);
    const march = await load({ from: "2026-03-01", to: "2026-03-31" });
    expect(march.reviews.map((r) => r.text)).toEqual(["Review b", "Review e", "Edited"]);
    expect(march.reviews[0]?.publishedAt).toEqual(new Date("2026-03-01T00:00:00.000Z"));
    expect(march.places).toEqual([
      { place_key: place, origin: TEST_ORIGIN, name: null, reviews: 2 },
      { place_key: place, origin: "http://127.0.0.1:4999", name: null, reviews: 1 },
    ]);
    expect((await load({ origin: TEST_ORIGIN })).reviews.map((r) => r.text)).toEqual([
      "Review a",
      "Review b",
      "Edited",
      "Review d",
    ]);
    expect((await load({ max_reviews: 2 })).reviews.map((r) => r.text)).toEqual(["Review a", "Review b"]);
  });
});

import { describe, expect, it } from "vitest";
import { median, replyKpis } from "./kpis";

const at = (iso: string) => new Date(iso);

describe("reply KPIs", () => {
  it("median of odd and even counts, none for no values", () => {
    expect(median([])).toBeNull();
    expect(median([5])).toBe(5);
    expect(median([9, 1, 4])).toBe(4);
    expect(median([4, 1, 9, 2])).toBe(3);
  });

  it("reply rate over every review, median delay over replies with both dates, per month", () => {
    const k = replyKpis([
      { publishedAt: at("2026-03-01T10:00:00Z"), ownerReplied: true, ownerReplyAt: at("2026-03-02T10:00:00Z") },
      { publishedAt: at("2026-03-05T10:00:00Z"), ownerReplied: true, ownerReplyAt: at("2026-03-08T10:00:00Z") },
      { publishedAt: at("2026-03-09T10:00:00Z"), ownerReplied: false, ownerReplyAt: null },
      // Replied, but the platform shows no date: counts for the rate, not for the median.
      { publishedAt: at("2026-04-01T10:00:00Z"), ownerReplied: true, ownerReplyAt: null },
      // A reply dated before the review says nothing of the delay.
      { publishedAt: at("2026-04-10T10:00:00Z"), ownerReplied: true, ownerReplyAt: at("2026-04-01T00:00:00Z") },
      { publishedAt: null, ownerReplied: false, ownerReplyAt: null },
    ]);
    expect(k).toMatchObject({ reviews: 6, replied: 4, reply_rate: 66.7, timed: 2, median_response_days: 2 });
    expect(k.by_month).toEqual([
      { month: "2026-03", reviews: 3, replied: 2, reply_rate: 66.7, timed: 2, median_response_days: 2 },
      { month: "2026-04", reviews: 2, replied: 2, reply_rate: 100, timed: 0, median_response_days: null },
    ]);
  });

  it("no reviews and no replies give zeros and no median", () => {
    expect(replyKpis([])).toEqual({
      reviews: 0,
      replied: 0,
      reply_rate: 0,
      timed: 0,
      median_response_days: null,
      by_month: [],
    });
    const none = replyKpis([{ publishedAt: at("2026-01-01T00:00:00Z"), ownerReplied: false, ownerReplyAt: null }]);
    expect(none).toMatchObject({ reviews: 1, replied: 0, reply_rate: 0, median_response_days: null });
  });
});

/** One review as the reply KPIs read it: when it was published, whether the platform shows an owner reply, and its date. */
export interface ReplyKpiInput {
  publishedAt: Date | null;
  ownerReplied: boolean;
  ownerReplyAt: Date | null;
}

/** Reply rate and median response time of a group of reviews (docs/pipelines.md, "Reply KPIs"). */
export interface ReplyKpiGroup {
  reviews: number;
  /** Reviews the platform shows an owner reply for. */
  replied: number;
  /** replied / reviews in percent, one decimal (0 with no reviews). */
  reply_rate: number;
  /** Replied reviews with both dates and a reply not before the review: the reviews the median is over. */
  timed: number;
  /** Median of owner_reply_at − published_at in days, one decimal; null when `timed` is 0. */
  median_response_days: number | null;
}

export interface ReplyKpis extends ReplyKpiGroup {
  /** Per month of publication ('YYYY-MM', UTC), oldest first; reviews without a date are in the totals only. */
  by_month: ({ month: string } & ReplyKpiGroup)[];
}

const DAY_MS = 86_400_000;
const round1 = (n: number) => Math.round(n * 10) / 10;

/** The median of numbers (the mean of the two middle ones for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function group(reviews: readonly ReplyKpiInput[]): ReplyKpiGroup {
  let replied = 0;
  const delays: number[] = [];
  for (const r of reviews) {
    if (!r.ownerReplied) continue;
    replied += 1;
    // A reply dated before its review (a platform that shows only the month of one of them) says nothing of the delay.
    if (r.publishedAt && r.ownerReplyAt && r.ownerReplyAt >= r.publishedAt) {
      delays.push((r.ownerReplyAt.getTime() - r.publishedAt.getTime()) / DAY_MS);
    }
  }
  const m = median(delays);
  return {
    reviews: reviews.length,
    replied,
    reply_rate: reviews.length ? round1((replied / reviews.length) * 100) : 0,
    timed: delays.length,
    median_response_days: m === null ? null : round1(m),
  };
}

/** The reply KPIs of a run's reviews: over all of them, and per month of publication. */
export function replyKpis(reviews: readonly ReplyKpiInput[]): ReplyKpis {
  const months = new Map<string, ReplyKpiInput[]>();
  for (const r of reviews) {
    if (!r.publishedAt) continue;
    const month = r.publishedAt.toISOString().slice(0, 7);
    const list = months.get(month) ?? [];
    list.push(r);
    months.set(month, list);
  }
  return {
    ...group(reviews),
    by_month: [...months.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([month, list]) => ({ month, ...group(list) })),
  };
}

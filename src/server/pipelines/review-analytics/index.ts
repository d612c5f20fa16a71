import type { PipelineDefinition, StageDefinition } from "../types";
import type { Aggregates } from "./aggregates";
import { aggregate } from "./aggregate";
import { classifyWithModel } from "./classify";
import type { ReviewAnalyticsContext } from "./context";
import { REVIEW_ANALYTICS_DASHBOARD, reviewAnalyticsWidgetData } from "./dashboard";
import { ZReviewAnalyticsInput, type TReviewAnalyticsInput } from "./input";
import { assertReadableInput } from "./input-access";
import { labelRows } from "./evidence";
import { previousEvidence } from "./evidence-store";
import { emptyReason, loadReviews } from "./load";
import type { ClassifiedReview, NormalizedReview, RawReview, RoutedReviews } from "./model";
import { normalize } from "./normalize";
import { comparePlaces } from "./place-comparison";
import { previousRun } from "./previous-run";
import { replyKpis } from "./replies/kpis";
import { route } from "./route";
import type { ReportV2 } from "./synthesis/report";
import { synthesize } from "./synthesis/synthesize";

type Stage<In, Out> = StageDefinition<In, Out, ReviewAnalyticsContext>;

const length = (list: readonly unknown[]) => list.length;

/** The five stages, in order, usable without the engine (the benchmark runs them this way). */
export const REVIEW_ANALYTICS_STAGES = {
  normalize: { id: "normalize", name: "Normalize", count: length, run: (raw) => normalize(raw) } satisfies Stage<
    RawReview[],
    NormalizedReview[]
  >,
  classify: {
    id: "classify",
    name: "Classify",
    count: length,
    run: (reviews, ctx) => classifyWithModel(reviews, ctx.classifier ?? null),
  } satisfies Stage<NormalizedReview[], ClassifiedReview[]>,
  route: { id: "route", name: "Route", count: length, run: (reviews) => route(reviews) } satisfies Stage<
    ClassifiedReview[],
    RoutedReviews
  >,
  aggregate: {
    id: "aggregate",
    name: "Aggregate",
    count: (r) => r.reviews.length,
    run: (routed, ctx) => aggregate(routed, ctx.reviewsIn),
  } satisfies Stage<RoutedReviews, Aggregates>,
  synthesize: {
    id: "synthesize",
    name: "Synthesize",
    count: () => 1,
    run: (agg, ctx) =>
      synthesize(agg, {
        writer: ctx.writer,
        now: ctx.now,
        places: ctx.places ?? [],
        previous: ctx.previous ?? null,
        labels: ctx.labels ?? null,
        previousEvidence: ctx.previousEvidence ?? {},
      }),
  } satisfies Stage<Aggregates, ReportV2>,
};

/** Aggregates travel with the report to the end, so `finish` can store both. */
interface Final {
  report: ReportV2;
}

/** review-analytics: normalize → classify → route → aggregate → synthesize (stage 5). */
export const reviewAnalytics: PipelineDefinition<
  TReviewAnalyticsInput,
  ReviewAnalyticsContext & { aggregates?: Aggregates }
> = {
  id: "review-analytics",
  name: "Review analytics",
  description:
    "Cleans, deduplicates and language-tags collected reviews (en, es, de), scores sentiment with per-language lexicons, " +
    "tags categories, routes issues to owner teams, aggregates them for the dashboard and writes a synthesis report.",
  version: "1.0.0",
  inputSchema: ZReviewAnalyticsInput,
  stages: [
    REVIEW_ANALYTICS_STAGES.normalize,
    REVIEW_ANALYTICS_STAGES.classify,
    REVIEW_ANALYTICS_STAGES.route,
    {
      ...REVIEW_ANALYTICS_STAGES.aggregate,
      // Keeps the aggregates on the context: they are the execution's stored result.
      run: (routed: RoutedReviews, ctx: ReviewAnalyticsContext & { aggregates?: Aggregates }) => {
        const r = aggregate(routed, ctx.reviewsIn);
        ctx.aggregates = r.output;
        // What the run made of each review read: the rows every figure of the report is counted in.
        if (ctx.read) ctx.labels = labelRows(routed, ctx.read, r.output.complaint_phrases);
        // The platform's owner replies of the reviews kept (duplicates and empty ones are not the run's reviews).
        if (ctx.read) {
          const kept = new Set(routed.reviews.map((k) => k.id));
          r.output.replies = replyKpis(
            ctx.read
              .filter((k) => kept.has(k.id))
              .map((k) => ({
                publishedAt: k.publishedAt ?? null,
                ownerReplied: k.ownerReplied ?? false,
                ownerReplyAt: k.ownerReplyAt ?? null,
              })),
          );
        }
        // Each place's categories side by side, from the same rows (docs/pipelines.md, "Comparing places").
        const compared = ctx.labels ? comparePlaces(ctx.labels, ctx.places ?? []) : null;
        if (compared) r.output.place_comparison = compared;
        return r;
      },
    },
    REVIEW_ANALYTICS_STAGES.synthesize,
  ] as unknown as PipelineDefinition["stages"],
  dashboard: REVIEW_ANALYTICS_DASHBOARD,
  authorizeInput: (input, access) => assertReadableInput(access.db, input, access.readScopeApiKeyId),
  async prepare(input, deps) {
    const { reviews, places } = await loadReviews(deps.db, input, deps.readScopeApiKeyId);
    const previous = await previousRun(deps.db, places, deps.readScopeApiKeyId);
    const previousFigures = previous ? await previousEvidence(deps.db, previous.execution_id) : {};
    return {
      first: reviews,
      ctx: {
        reviewsIn: reviews.length,
        places,
        previous,
        previousEvidence: previousFigures,
        read: reviews,
        writer: deps.writer ?? null,
        classifier: deps.classifier ?? null,
        now: deps.now,
      },
      scope: {
        items: reviews.length,
        places,
        ...(reviews.length === 0 ? { empty_reason: await emptyReason(deps.db, input, deps.readScopeApiKeyId) } : {}),
      },
    };
  },
  finish(last, ctx) {
    const report = last as Final["report"];
    return {
      result: (ctx.aggregates ?? {}) as unknown as Record<string, unknown>,
      synthesis: report as unknown as Record<string, unknown>,
      ...(ctx.labels ? { labels: ctx.labels } : {}),
    };
  },
  widgetData: reviewAnalyticsWidgetData,
};

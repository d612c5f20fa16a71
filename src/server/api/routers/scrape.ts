import { z } from "zod";
import { cancelBatch } from "@/server/services/reviews/cancel-batch";
import { createBatch, createJob } from "@/server/services/reviews/create-jobs";
import { cancelJob, retryJob } from "@/server/services/reviews/job-actions";
import * as dash from "@/server/services/reviews/dashboards";
import { getBatch, getJobDetail, listBatches, listJobs } from "@/server/services/reviews/read";
import * as s from "@/server/services/reviews/schemas";
import { reviewPage, ZBatchReviewsInput, ZJobReviewsInput, ZReviewPageOut } from "@/server/services/reviews/review-out";
import * as places from "@/server/services/reviews/places";
import { engineProcedure, idempotencyKeyOf } from "../engine-procedure";
import { createTRPCRouter } from "../trpc";
import { apiKeysRouter } from "./scrape-keys";
import { registryRouter } from "./scrape-registry";
import { schedulesRouter } from "./scrape-schedules";

type Method = "GET" | "POST" | "DELETE";
const rest = (method: Method, path: `/${string}`, summary: string, tags = ["review-engine"]) => ({
  openapi: { method, path, summary, tags, protect: true },
});

const ZCreatedBatchOut = s.ZBatchOut.extend({ job_ids: z.array(z.string()) });
const ZCancelledBatchOut = s.ZBatchOut.extend({ cancelled_jobs: z.number().int() });
const ZEvent = z.object({ status: z.enum(s.JOB_STATUSES), detail: z.record(z.string(), z.unknown()), at: z.date() });
const ZJobDetailOut = z.object({
  job: s.ZJobOut,
  events: z.array(ZEvent),
  reviews: z.array(
    z.object({
      id: z.string(),
      external_id: z.string(),
      author: z.string().nullable(),
      rating: z.number().int().nullable(),
      text: z.string().nullable(),
      language: z.string().nullable(),
      published_at: z.date().nullable(),
      owner_reply: z.string().nullable(),
    }),
  ),
  callbacks: z.array(
    z.object({
      id: z.string(),
      webhook_id: z.string(),
      kind: z.string(),
      state: z.enum(s.CALLBACK_STATES),
      attempts: z.number().int(),
      next_attempt_at: z.date().nullable(),
      attempt_log: z.array(
        z.object({
          attempt: z.number().int(),
          status_code: z.number().int().nullable(),
          error: z.string().nullable(),
          duration_ms: z.number().int(),
          at: z.date(),
        }),
      ),
    }),
  ),
});

/** Marks a replayed answer (same Idempotency-Key and body as an earlier request). */
function marked<T>(ctx: { responseHeaders: Map<string, string> }, r: { value: T; replayed: boolean }): T {
  if (r.replayed) ctx.responseHeaders.set("Idempotent-Replayed", "true");
  return r.value;
}

const createJobProcedure = (path: `/${string}`, summary: string) =>
  engineProcedure("jobs:write")
    .meta(rest("POST", path, summary))
    .input(s.ZCreateJobInput)
    .output(s.ZJobOut)
    .mutation(async ({ ctx, input }) =>
      marked(ctx, await createJob(ctx.service, input, idempotencyKeyOf(ctx.headers))),
    );

/** Review-collection jobs, batches, dashboards and administration (Document 1), for REST clients and the pages. */
export const scrapeRouter = createTRPCRouter({
  create: createJobProcedure("/scrape", "Create a review-collection job"),
  createPlatformReviews: createJobProcedure(
    "/scrape/platform-reviews",
    "Create a review-collection job (primary entry)",
  ),
  createBatch: engineProcedure("jobs:write")
    .meta(rest("POST", "/scrape/platform-reviews/batch", "Create a batch of jobs"))
    .input(s.ZCreateBatchInput)
    .output(ZCreatedBatchOut)
    .mutation(async ({ ctx, input }) =>
      marked(ctx, await createBatch(ctx.service, input, idempotencyKeyOf(ctx.headers))),
    ),
  batches: engineProcedure("jobs:read")
    .meta(rest("GET", "/batches", "List batches with progress"))
    .input(s.ZListBatchesInput)
    .output(s.ZBatchesPage)
    .query(({ ctx, input }) => listBatches(ctx.service, input)),
  batch: engineProcedure("jobs:read")
    .meta(rest("GET", "/batches/{batch_id}", "A batch with progress and its jobs"))
    .input(s.ZBatchIdInput)
    .output(s.ZBatchDetailOut)
    .query(({ ctx, input }) => getBatch(ctx.service, input)),
  cancelBatch: engineProcedure("jobs:write")
    .meta(rest("DELETE", "/batches/{batch_id}", "Cancel a batch (queued jobs are cancelled, running ones finish)"))
    .input(s.ZBatchIdInput)
    .output(ZCancelledBatchOut)
    .mutation(({ ctx, input }) => cancelBatch(ctx.service, input)),
  jobs: engineProcedure("jobs:read")
    .meta(rest("GET", "/jobs", "List jobs"))
    .input(s.ZListJobsInput)
    .output(s.ZJobsPage)
    .query(({ ctx, input }) => listJobs(ctx.service, input)),
  job: engineProcedure("jobs:read")
    .meta(
      rest(
        "GET",
        "/jobs/{job_id}",
        "A job with its state timeline, a preview of its newest reviews (all: /jobs/{job_id}/reviews) and callback attempts",
      ),
    )
    .input(s.ZJobIdInput)
    .output(ZJobDetailOut)
    .query(({ ctx, input }) => getJobDetail(ctx.service, input)),
  cancelJob: engineProcedure("jobs:write")
    .meta(
      rest(
        "POST",
        "/jobs/{job_id}/cancel",
        "Cancel a job (queued: at once; running: stops within 5 s, keeping the reviews read so far)",
      ),
    )
    .input(s.ZJobIdInput)
    .output(s.ZJobOut)
    .mutation(({ ctx, input }) => cancelJob(ctx.service, input)),
  retryJob: engineProcedure("jobs:write")
    .meta(rest("POST", "/jobs/{job_id}/retry", "Run a failed or cancelled job again (a new run of the same job)"))
    .input(s.ZJobIdInput)
    .output(s.ZJobOut)
    .mutation(({ ctx, input }) => retryJob(ctx.service, input)),
  jobReviews: engineProcedure("jobs:read")
    .meta(
      rest(
        "GET",
        "/jobs/{job_id}/reviews",
        "Every review a job collected, page by page (keyset cursor; export: /jobs/{job_id}/reviews/export)",
      ),
    )
    .input(ZJobReviewsInput)
    .output(ZReviewPageOut)
    .query(({ ctx, input }) => reviewPage(ctx.service, input)),
  batchReviews: engineProcedure("jobs:read")
    .meta(
      rest(
        "GET",
        "/batches/{batch_id}/reviews",
        "Every review a batch's jobs collected, job by job, page by page (export: /batches/{batch_id}/reviews/export)",
      ),
    )
    .input(ZBatchReviewsInput)
    .output(ZReviewPageOut)
    .query(({ ctx, input }) => reviewPage(ctx.service, input)),
  places: engineProcedure("jobs:read")
    .meta(rest("GET", "/places", "Places the key's jobs read, with the facts the platform showed"))
    .input(places.ZListPlacesInput)
    .output(places.ZPlacesPage)
    .query(({ ctx, input }) => places.listPlaces(ctx.service, input)),
  place: engineProcedure("jobs:read")
    .meta(
      rest(
        "GET",
        "/places/{place_id}",
        "A place: its facts, the reviews collected of it and the latest job's coverage",
      ),
    )
    .input(places.ZPlaceIdInput)
    .output(places.ZPlaceDetailOut)
    .query(({ ctx, input }) => places.getPlace(ctx.service, input)),
  placeReviews: engineProcedure("jobs:read")
    .meta(
      rest(
        "GET",
        "/places/{place_id}/reviews",
        "The place's reviews the key's jobs collected (newest version of each), filtered, page by page",
      ),
    )
    .input(places.ZPlaceReviewsInput)
    .output(places.ZPlaceReviewsOut)
    .query(({ ctx, input }) => places.placeReviews(ctx.service, input)),
  overview: engineProcedure("jobs:read")
    .meta(rest("GET", "/dashboard/overview", "Jobs by status, success rate, top clients"))
    .input(dash.ZDashboardInput)
    .output(dash.ZOverviewOut)
    .query(({ ctx, input }) => dash.dashboardOverview(ctx.service, input)),
  byClient: engineProcedure("jobs:read")
    .meta(rest("GET", "/dashboard/by-client", "Aggregates per requester client"))
    .input(dash.ZDashboardInput)
    .output(dash.ZByClientOut)
    .query(({ ctx, input }) => dash.dashboardByClient(ctx.service, input)),
  problems: engineProcedure("jobs:read")
    .meta(rest("GET", "/dashboard/problems", "Problem jobs: failures by class and version, failed callbacks"))
    .input(dash.ZDashboardInput)
    .output(dash.ZProblemsOut)
    .query(({ ctx, input }) => dash.dashboardProblems(ctx.service, input)),
  byVersion: engineProcedure("jobs:read")
    .meta(rest("GET", "/dashboard/by-version", "Aggregates per scraper version and variant"))
    .input(dash.ZDashboardInput)
    .output(dash.ZByVersionOut)
    .query(({ ctx, input }) => dash.dashboardByVersion(ctx.service, input)),
  registry: registryRouter,
  keys: apiKeysRouter,
  schedules: schedulesRouter,
});

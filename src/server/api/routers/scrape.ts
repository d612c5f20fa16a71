import { cancelBatch } from "@/server/services/reviews/cancel-batch";
import { createBatch, createJob } from "@/server/services/reviews/create-jobs";
import { cancelJob, retryJob } from "@/server/services/reviews/job-actions";
import * as dash from "@/server/services/reviews/dashboards";
import * as ds from "@/server/services/reviews/dashboards.schema";
import { getBatch, getJobDetail, listBatches, listJobs } from "@/server/services/reviews/read";
import { ZCancelledBatchOut } from "@/server/services/reviews/cancel-batch.schema";
import { ZCreateBatchInput, ZCreatedBatchOut, ZCreateJobInput } from "@/server/services/reviews/create-jobs.schema";
import { ZJobOut } from "@/server/services/reviews/job-output.schema";
import * as rd from "@/server/services/reviews/read.schema";
import { ZBatchIdInput, ZJobIdInput } from "@/server/services/reviews/schemas";
import { reviewPage } from "@/server/services/reviews/review-out";
import { ZBatchReviewsInput, ZJobReviewsInput, ZReviewPageOut } from "@/server/services/reviews/review-out.schema";
import * as places from "@/server/services/reviews/places";
import * as ps from "@/server/services/reviews/places.schema";
import { searchPlaces } from "@/server/services/reviews/search-places";
import { ZSearchPlacesInput, ZSearchPlacesOut } from "@/server/services/reviews/search-places.schema";
import { engineProcedure, idempotencyKeyOf } from "../engine-procedure";
import { createTRPCRouter } from "../trpc";
import { apiKeysRouter } from "./scrape-keys";
import { registryRouter } from "./scrape-registry";
import { alertsRouter } from "./scrape-alerts";
import { schedulesRouter } from "./scrape-schedules";

type Method = "GET" | "POST" | "DELETE";
const rest = (method: Method, path: `/${string}`, summary: string, tags = ["review-engine"]) => ({
  openapi: { method, path, summary, tags, protect: true },
});

/** Marks a replayed answer (same Idempotency-Key and body as an earlier request). */
function marked<T>(ctx: { responseHeaders: Map<string, string> }, r: { value: T; replayed: boolean }): T {
  if (r.replayed) ctx.responseHeaders.set("Idempotent-Replayed", "true");
  return r.value;
}

const createJobProcedure = (path: `/${string}`, summary: string) =>
  engineProcedure("jobs:write")
    .meta(rest("POST", path, summary))
    .input(ZCreateJobInput)
    .output(ZJobOut)
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
    .input(ZCreateBatchInput)
    .output(ZCreatedBatchOut)
    .mutation(async ({ ctx, input }) =>
      marked(ctx, await createBatch(ctx.service, input, idempotencyKeyOf(ctx.headers))),
    ),
  batches: engineProcedure("jobs:read")
    .meta(rest("GET", "/batches", "List batches with progress"))
    .input(rd.ZListBatchesInput)
    .output(rd.ZBatchesPage)
    .query(({ ctx, input }) => listBatches(ctx.service, input)),
  batch: engineProcedure("jobs:read")
    .meta(rest("GET", "/batches/{batch_id}", "A batch with progress and its jobs"))
    .input(ZBatchIdInput)
    .output(rd.ZBatchDetailOut)
    .query(({ ctx, input }) => getBatch(ctx.service, input)),
  cancelBatch: engineProcedure("jobs:write")
    .meta(rest("DELETE", "/batches/{batch_id}", "Cancel a batch (queued jobs are cancelled, running ones finish)"))
    .input(ZBatchIdInput)
    .output(ZCancelledBatchOut)
    .mutation(({ ctx, input }) => cancelBatch(ctx.service, input)),
  jobs: engineProcedure("jobs:read")
    .meta(rest("GET", "/jobs", "List jobs"))
    .input(rd.ZListJobsInput)
    .output(rd.ZJobsPage)
    .query(({ ctx, input }) => listJobs(ctx.service, input)),
  job: engineProcedure("jobs:read")
    .meta(
      rest(
        "GET",
        "/jobs/{job_id}",
        "A job with its state timeline, a preview of its newest reviews (all: /jobs/{job_id}/reviews) and callback attempts",
      ),
    )
    .input(ZJobIdInput)
    .output(rd.ZJobDetailOut)
    .query(({ ctx, input }) => getJobDetail(ctx.service, input)),
  cancelJob: engineProcedure("jobs:write")
    .meta(
      rest(
        "POST",
        "/jobs/{job_id}/cancel",
        "Cancel a job (queued: at once; running: stops within 5 s, keeping the reviews read so far)",
      ),
    )
    .input(ZJobIdInput)
    .output(ZJobOut)
    .mutation(({ ctx, input }) => cancelJob(ctx.service, input)),
  retryJob: engineProcedure("jobs:write")
    .meta(rest("POST", "/jobs/{job_id}/retry", "Run a failed or cancelled job again (a new run of the same job)"))
    .input(ZJobIdInput)
    .output(ZJobOut)
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
    .input(ps.ZListPlacesInput)
    .output(ps.ZPlacesPage)
    .query(({ ctx, input }) => places.listPlaces(ctx.service, input)),
  place: engineProcedure("jobs:read")
    .meta(
      rest(
        "GET",
        "/places/{place_id}",
        "A place: its facts, the reviews collected of it and the latest job's coverage",
      ),
    )
    .input(ps.ZPlaceIdInput)
    .output(ps.ZPlaceDetailOut)
    .query(({ ctx, input }) => places.getPlace(ctx.service, input)),
  // The forms' place picker (no REST path): at most 10 known places by name or platform id.
  searchPlaces: engineProcedure("jobs:read")
    .input(ZSearchPlacesInput)
    .output(ZSearchPlacesOut)
    .query(({ ctx, input }) => searchPlaces(ctx.service, input)),
  placeReviews: engineProcedure("jobs:read")
    .meta(
      rest(
        "GET",
        "/places/{place_id}/reviews",
        "The place's reviews the key's jobs collected (newest version of each), filtered, page by page",
      ),
    )
    .input(ps.ZPlaceReviewsInput)
    .output(ps.ZPlaceReviewsOut)
    .query(({ ctx, input }) => places.placeReviews(ctx.service, input)),
  overview: engineProcedure("jobs:read")
    .meta(rest("GET", "/dashboard/overview", "Jobs by status, success rate, top clients"))
    .input(ds.ZDashboardInput)
    .output(ds.ZOverviewOut)
    .query(({ ctx, input }) => dash.dashboardOverview(ctx.service, input)),
  byClient: engineProcedure("jobs:read")
    .meta(rest("GET", "/dashboard/by-client", "Aggregates per requester client"))
    .input(ds.ZDashboardInput)
    .output(ds.ZByClientOut)
    .query(({ ctx, input }) => dash.dashboardByClient(ctx.service, input)),
  problems: engineProcedure("jobs:read")
    .meta(rest("GET", "/dashboard/problems", "Problem jobs: failures by class and version, failed callbacks"))
    .input(ds.ZDashboardInput)
    .output(ds.ZProblemsOut)
    .query(({ ctx, input }) => dash.dashboardProblems(ctx.service, input)),
  byVersion: engineProcedure("jobs:read")
    .meta(rest("GET", "/dashboard/by-version", "Aggregates per scraper version and variant"))
    .input(ds.ZDashboardInput)
    .output(ds.ZByVersionOut)
    .query(({ ctx, input }) => dash.dashboardByVersion(ctx.service, input)),
  registry: registryRouter,
  keys: apiKeysRouter,
  schedules: schedulesRouter,
  alerts: alertsRouter,
});

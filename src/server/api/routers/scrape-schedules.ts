import * as sc from "@/server/services/reviews/schedules.schema";
import * as schedules from "@/server/services/reviews/schedules";
import { engineProcedure } from "../engine-procedure";
import { createTRPCRouter } from "../trpc";

const rest = (method: "GET" | "POST" | "DELETE", path: `/${string}`, summary: string) => ({
  openapi: { method, path, summary, tags: ["monitoring"], protect: true },
});

/** Monitoring schedules (each run a batch of the schedule's targets) and the history of a review. */
export const schedulesRouter = createTRPCRouter({
  create: engineProcedure("jobs:write")
    .meta(
      rest(
        "POST",
        "/schedules",
        "Create a schedule: its targets collected again as one batch per slot (cron in UTC or an interval), new_only or full",
      ),
    )
    .input(sc.ZCreateScheduleInput)
    .output(sc.ZScheduleOut)
    .mutation(({ ctx, input }) => schedules.createSchedule(ctx.service, input)),
  list: engineProcedure("jobs:read")
    .meta(rest("GET", "/schedules", "List schedules"))
    .input(sc.ZListSchedulesInput)
    .output(sc.ZSchedulesPage)
    .query(({ ctx, input }) => schedules.listSchedules(ctx.service, input)),
  get: engineProcedure("jobs:read")
    .meta(
      rest(
        "GET",
        "/schedules/{schedule_id}",
        "A schedule with its newest runs and their new, updated and unchanged counts",
      ),
    )
    .input(sc.ZScheduleIdInput)
    .output(sc.ZScheduleDetailOut)
    .query(({ ctx, input }) => schedules.getSchedule(ctx.service, input)),
  pause: engineProcedure("jobs:write")
    .meta(rest("POST", "/schedules/{schedule_id}/pause", "Pause a schedule (no slot runs until it is resumed)"))
    .input(sc.ZScheduleIdInput)
    .output(sc.ZScheduleOut)
    .mutation(({ ctx, input }) => schedules.setScheduleStatus(ctx.service, { ...input, status: "paused" })),
  resume: engineProcedure("jobs:write")
    .meta(
      rest(
        "POST",
        "/schedules/{schedule_id}/resume",
        "Resume a schedule at its next slot after now (missed slots are not run)",
      ),
    )
    .input(sc.ZScheduleIdInput)
    .output(sc.ZScheduleOut)
    .mutation(({ ctx, input }) => schedules.setScheduleStatus(ctx.service, { ...input, status: "active" })),
  setAnalysis: engineProcedure("jobs:write")
    .meta(
      rest(
        "POST",
        "/schedules/{schedule_id}/analysis",
        "Analyse each slot's batch once it ends (review-analytics; alert rules fire on those runs), or stop",
      ),
    )
    .input(sc.ZSetScheduleAnalysisInput)
    .output(sc.ZScheduleOut)
    .mutation(({ ctx, input }) => schedules.setScheduleAnalysis(ctx.service, input)),
  delete: engineProcedure("jobs:write")
    .meta(rest("DELETE", "/schedules/{schedule_id}", "Delete a schedule (its runs stay as batches)"))
    .input(sc.ZScheduleIdInput)
    .output(sc.ZDeletedScheduleOut)
    .mutation(({ ctx, input }) => schedules.deleteSchedule(ctx.service, input)),
  reviewHistory: engineProcedure("jobs:read")
    .meta(
      rest(
        "GET",
        "/reviews/{review_id}/history",
        "Every version of a review the key's jobs collected, oldest first (an edit adds a version)",
      ),
    )
    .input(sc.ZReviewIdInput)
    .output(sc.ZReviewHistoryOut)
    .query(({ ctx, input }) => schedules.reviewHistory(ctx.service, input)),
});

import "server-only";
import { TRPCError } from "@trpc/server";
import { notFound } from "next/navigation";
import { cache } from "react";
import { requireAdmin } from "./admin";
import { serverCaller } from "./server";

/** The engine's objects that have a page of their own. */
export type EngineObject = "job" | "batch" | "schedule" | "place";

/**
 * Whether the engine object of a detail page exists, checked on the server before the page renders
 * (the page itself polls it in the browser), so an absent id or not even an id is the not-found page
 * with HTTP status 404, not a page that keeps failing to load. Cached per request: the page's title
 * and the page ask once.
 */
export const engineObjectExists = cache(async (locale: string, kind: EngineObject, id: string) => {
  await requireAdmin(locale, "/engine");
  const caller = await serverCaller();
  try {
    if (kind === "job") await caller.scrape.job({ job_id: id });
    else if (kind === "batch") await caller.scrape.batch({ batch_id: id });
    else if (kind === "place") await caller.scrape.place({ place_id: id });
    else await caller.scrape.schedules.get({ schedule_id: id });
    return true;
  } catch (error) {
    if (error instanceof TRPCError && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST")) return false;
    throw error;
  }
});

/** The engine detail page's check: the not-found page (HTTP 404) when the object is absent. */
export async function loadEngineObject(locale: string, kind: EngineObject, id: string) {
  if (!(await engineObjectExists(locale, kind, id))) notFound();
}

/** Whether the pipeline run a run page shows exists (absent, someone else's or not an id: false). */
export const executionExists = cache(async (pipelineId: string, executionId: string) => {
  try {
    await (await serverCaller()).pipelines.execution({ pipeline_id: pipelineId, execution_id: executionId });
    return true;
  } catch (error) {
    if (error instanceof TRPCError && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST")) return false;
    throw error;
  }
});

import "server-only";
import { TRPCError } from "@trpc/server";
import { notFound } from "next/navigation";
import { cache } from "react";
import { requireAdmin } from "@/trpc/admin";
import { serverCaller } from "@/trpc/server";
import { isUuid } from "@/server/core/ids";

/**
 * A registered pipeline for the pipeline pages, after the administrator check (pages render beside
 * their layout, so each checks again); an unknown or malformed id is the not-found page.
 */
export async function loadPipeline(locale: string, pipelineId: string) {
  return (await findPipeline(locale, pipelineId)) ?? notFound();
}

/** The registered pipeline, or null when unknown or malformed (cached per request: title and page ask once). */
export const findPipeline = cache(async (locale: string, pipelineId: string) => {
  await requireAdmin(locale, "/pipelines");
  try {
    return await (await serverCaller()).pipelines.get({ pipeline_id: pipelineId });
  } catch (error) {
    if (error instanceof TRPCError && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST")) return null;
    throw error;
  }
});

/**
 * The execution a dashboard or report shows (`?execution=`, else the caller's default) and the runs
 * its picker offers; a chosen run that is absent or not the caller's is the not-found page.
 */
export async function loadSelection(pipelineId: string, execution: string | undefined) {
  const executionId = isUuid(execution) ? execution : undefined;
  try {
    const selection = await (
      await serverCaller()
    ).pipelines.selection({ pipeline_id: pipelineId, execution_id: executionId });
    return { ...selection, chosen: executionId !== undefined };
  } catch (error) {
    if (error instanceof TRPCError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
}

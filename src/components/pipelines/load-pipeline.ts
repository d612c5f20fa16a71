import "server-only";
import { TRPCError } from "@trpc/server";
import { notFound } from "next/navigation";
import { serverCaller } from "@/trpc/server";

/** A registered pipeline for the pipeline pages; an unknown or malformed id is the not-found page. */
export async function loadPipeline(pipelineId: string) {
  try {
    return await (await serverCaller()).pipelines.get({ pipeline_id: pipelineId });
  } catch (error) {
    if (error instanceof TRPCError && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST")) notFound();
    throw error;
  }
}

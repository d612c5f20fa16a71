import { z } from "zod";
import type { Db } from "@/server/core/db";
import { AppError } from "@/server/core/errors";
import { findPipeline, PIPELINES, syncRegistry } from "@/server/pipelines/registry";
import type { PipelineDefinition } from "@/server/pipelines/types";
import type { Actor } from "@/server/services/actor";
import type { ServiceContext } from "@/server/services/context";
import { assertPipelineAccess, visibleExecutions } from "./access";
import type { TPipelineIdInput } from "./schemas";

/** A registered pipeline or NOT_FOUND. */
export function pipelineOrThrow(id: string, registry: readonly PipelineDefinition[] = PIPELINES): PipelineDefinition {
  const def = findPipeline(id, registry);
  if (!def) throw new AppError("NOT_FOUND", "pipeline_not_found");
  return def;
}

/** JSON Schema of a pipeline's run request (the execute form is generated from it). */
export function inputJsonSchema(def: PipelineDefinition): Record<string, unknown> {
  return z.toJSONSchema(def.inputSchema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
}

/** The newest execution of each pipeline among those the actor can see. */
async function latestByPipeline(
  db: Db,
  actor: Actor,
): Promise<Map<string, { id: string; status: string; finishedAt: Date | null; queuedAt: Date }>> {
  const rows = await db.pipelineExecution.findMany({
    where: { pipelineId: { in: PIPELINES.map((p) => p.id) }, ...visibleExecutions(actor) },
    distinct: ["pipelineId"],
    orderBy: [{ pipelineId: "asc" }, { createdAt: "desc" }],
    select: { id: true, pipelineId: true, status: true, finishedAt: true, queuedAt: true },
  });
  return new Map(rows.map((r) => [r.pipelineId, r]));
}

function summary(
  def: PipelineDefinition,
  latest: { id: string; status: string; finishedAt: Date | null; queuedAt: Date } | undefined,
) {
  return {
    id: def.id,
    name: def.name,
    description: def.description,
    version: def.version,
    stages: def.stages.map((s) => ({ id: s.id, name: s.name })),
    widget_count: def.dashboard.length,
    latest_execution: latest
      ? {
          id: latest.id,
          status: latest.status as "queued" | "running" | "succeeded" | "failed",
          queued_at: latest.queuedAt,
          finished_at: latest.finishedAt,
        }
      : null,
  };
}

/** GET /api/pipelines: every registered pipeline with the newest execution the caller can see. */
export async function listPipelines({ db, actor }: ServiceContext) {
  assertPipelineAccess(actor, "read");
  await syncRegistry(db);
  const latest = await latestByPipeline(db, actor);
  return { items: PIPELINES.map((def) => summary(def, latest.get(def.id))) };
}

/** GET /api/pipelines/{pipeline_id}: details, with the input schema and the stages. */
export async function getPipeline({ db, actor }: ServiceContext, input: TPipelineIdInput) {
  assertPipelineAccess(actor, "read");
  const def = pipelineOrThrow(input.pipeline_id);
  await syncRegistry(db);
  const latest = await latestByPipeline(db, actor);
  return { ...summary(def, latest.get(def.id)), input_schema: inputJsonSchema(def) };
}

/** GET /api/pipelines/{pipeline_id}/dashboard: the widget definitions. */
export function getDashboard({ actor }: ServiceContext, input: TPipelineIdInput) {
  assertPipelineAccess(actor, "read");
  const def = pipelineOrThrow(input.pipeline_id);
  return { pipeline_id: def.id, widgets: def.dashboard };
}

import type { Db } from "@/server/core/db";
import { reviewAnalytics } from "./review-analytics";
import type { PipelineDefinition } from "./types";

/** Every pipeline registered in code. */
export const PIPELINES: readonly PipelineDefinition[] = [reviewAnalytics as unknown as PipelineDefinition];

/** A pipeline definition by id (undefined for an unknown id). */
export function findPipeline(
  id: string,
  registry: readonly PipelineDefinition[] = PIPELINES,
): PipelineDefinition | undefined {
  return registry.find((p) => p.id === id);
}

const synced = new WeakMap<Db, Promise<void>>();

/** Writes the registry's entries into the pipelines table (once per client), so executions can refer to them. */
export function syncRegistry(db: Db, registry: readonly PipelineDefinition[] = PIPELINES): Promise<void> {
  const run = async () => {
    for (const p of registry) {
      await db.pipeline.upsert({
        where: { id: p.id },
        create: { id: p.id, name: p.name, description: p.description, version: p.version },
        update: { name: p.name, description: p.description, version: p.version },
      });
    }
  };
  if (registry !== PIPELINES) return run();
  let pending = synced.get(db);
  if (!pending) {
    pending = run().catch((error: unknown) => {
      synced.delete(db);
      throw error;
    });
    synced.set(db, pending);
  }
  return pending;
}

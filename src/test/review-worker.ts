import { afterAll, beforeAll } from "vitest";
import type { SystemActor } from "@/server/services/actor";
import type { ServiceContext } from "@/server/services/context";
import { startTestWorker } from "./review-fixtures";

/** An in-process worker on the context's work queue for the whole test file, stopped (and the client closed) after it. */
export function workerForFile(ctx: ServiceContext<SystemActor>): void {
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    stop = await startTestWorker(ctx);
  });
  afterAll(async () => {
    await stop?.();
    await ctx.db.$disconnect();
  });
}

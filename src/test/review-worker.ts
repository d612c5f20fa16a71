import { afterAll, beforeAll } from "vitest";
import type { ReviewDeps } from "@/server/services/reviews/deps";
import { startTestWorker } from "./review-fixtures";

/** An in-process worker on the deps' work queue for the whole test file, stopped (and the client closed) after it. */
export function workerForFile(deps: ReviewDeps): void {
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    stop = await startTestWorker(deps);
  });
  afterAll(async () => {
    await stop?.();
    await deps.db.$disconnect();
  });
}

import { afterAll, describe, expect, it } from "vitest";
import type { Actor } from "@/server/services/actor";
import { testDb } from "@/test/helpers";
import { makeContext, makeKey, makeVersion, startTestWorker, waitFor } from "@/test/review-fixtures";
import { createJob } from "./create-jobs";
import { ZCreateJobInput } from "./create-jobs.schema";
import { withActor } from "@/server/services/context";

const db = testDb();
afterAll(() => db.$disconnect());

describe("priority", () => {
  it("runs queued jobs highest priority first", async () => {
    const deps = makeContext(db);
    const k = await makeKey(db, ["jobs:write"]);
    const actor: Actor = { kind: "apiKey", apiKeyId: k.id, scopes: ["jobs:write"] };
    const v = await makeVersion(db, "noop");
    const make = async (priority: number) =>
      (
        await createJob(
          withActor(deps, actor),
          ZCreateJobInput.parse({
            requester_client_id: "prio",
            platform_id: `p${priority}`,
            scraper_version: v.version,
            priority,
          }),
        )
      ).value.id;
    const low = [await make(1), await make(2), await make(3)];
    const high = await make(9);
    // One loop, started after every job is queued: the order of runs is the queue's order.
    const stop = await startTestWorker(deps, { scrape: 1, callbacks: 1 });
    try {
      const ids = [...low, high];
      const rows = await waitFor(async () => {
        const r = await db.job.findMany({
          where: { id: { in: ids } },
          select: { id: true, status: true, startedAt: true },
        });
        return r.every((j) => j.status === "succeeded") ? r : undefined;
      });
      const order = [...rows].sort((a, b) => a.startedAt!.getTime() - b.startedAt!.getTime()).map((r) => r.id);
      expect(order).toEqual([high, low[2], low[1], low[0]]);
    } finally {
      await stop();
    }
  });
});

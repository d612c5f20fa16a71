// Issue 14, points 1 and 2, through the engine's services and a real worker: a client's target stays
// on its version's platform origin, and what a job collected is its own. Only 127.0.0.1 servers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/server/core/errors";
import type { ApiKeyActor } from "@/server/services/actor";
import { testDb, uid } from "@/test/helpers";
import { startProbe, type Probe } from "@/test/probe";
import { rejectionOf } from "@/test/rejection";
import {
  makeContext,
  makeKey,
  makeVersion,
  startJsonPlatform,
  startTestWorker,
  testSettings,
  waitFor,
} from "@/test/review-fixtures";
import { createBatch, createJob } from "./create-jobs";
import { getJobDetail } from "./read";
import { ZCreateBatchInput, ZCreateJobInput } from "./create-jobs.schema";
import { serviceContext, withActor } from "@/server/services/context";

const db = testDb();
const deps = makeContext(db, testSettings());
let stopWorker: () => Promise<void>;
let probe: Probe;
beforeAll(async () => {
  stopWorker = await startTestWorker(deps);
  probe = await startProbe();
});
afterAll(async () => {
  await stopWorker();
  await probe.close();
  await db.$disconnect();
});

async function client(scopes = ["jobs:read", "jobs:write"]) {
  const k = await makeKey(db, scopes as ("jobs:read" | "jobs:write")[]);
  return { kind: "apiKey", apiKeyId: k.id, scopes } as ApiKeyActor;
}

describe("a job's target stays on its version's platform", () => {
  it("refuses a place_url on another origin with 422 target_not_allowed, and nothing reaches that origin", async () => {
    const platform = await startJsonPlatform();
    try {
      const actor = await client();
      const v = await makeVersion(db, "http-json", { platformUrl: platform.url });
      for (const place_url of [
        `${probe.url}/places/p-1`,
        `${platform.url.replace("127.0.0.1", "localhost")}/places/p-1`,
        `http://user:pw@${platform.url.slice(7)}/places/p-1`,
      ]) {
        const error = await rejectionOf(
          createJob(
            withActor(deps, actor),
            ZCreateJobInput.parse({ requester_client_id: "c", place_url, scraper_version: v.version }),
          ),
          AppError,
        );
        expect(error).toMatchObject({
          code: "UNPROCESSABLE",
          message: "target_not_allowed",
          details: { allowed_origin: platform.url },
        });
      }
      // A batch names every refused job; none of the batch is created.
      const batch = ZCreateBatchInput.parse({
        requester_client_id: "c",
        name: uid("b"),
        jobs: [
          { platform_id: "p-1", scraper_version: v.version },
          { place_url: `${probe.url}/places/p-2`, scraper_version: v.version },
          { place_url: `${platform.url}/places/p-3`, scraper_version: v.version },
          { place_url: `${probe.url}/places/p-4`, scraper_version: v.version },
        ],
      });
      const error = await rejectionOf(createBatch(withActor(deps, actor), batch), AppError);
      expect(error).toMatchObject({ code: "UNPROCESSABLE", message: "target_not_allowed", details: { refused: 2 } });
      expect((error.details as { jobs: { index: number }[] }).jobs.map((j) => j.index)).toEqual([1, 3]);
      expect(await db.batch.count({ where: { name: batch.name } })).toBe(0);
      // On the platform itself, a place URL is taken.
      const { value: ok } = await createJob(
        withActor(deps, actor),
        ZCreateJobInput.parse({
          requester_client_id: "c",
          place_url: `${platform.url}/places/p-9`,
          scraper_version: v.version,
        }),
      );
      await waitFor(async () =>
        (await db.job.findUniqueOrThrow({ where: { id: ok.id } })).status === "succeeded" ? true : undefined,
      );
      expect(probe.connections).toBe(0);
    } finally {
      await platform.close();
    }
  });

  it("fails a stored job whose place_url is off its platform (an older job) as invalid_target, without a request", async () => {
    const platform = await startJsonPlatform();
    try {
      const v = await makeVersion(db, "http-json", { platformUrl: platform.url });
      // As if written before origins were checked: the worker must refuse it on its own.
      const job = await db.job.create({
        data: {
          queue: deps.settings.review.JOB_QUEUE,
          requesterClientId: "c",
          placeUrl: `${probe.url}/places/p-1`,
          scraperVersionId: v.id,
          scraperVersion: v.version,
          scraperVariant: v.variant,
        },
      });
      const ended = await waitFor(async () => {
        const row = await db.job.findUniqueOrThrow({ where: { id: job.id } });
        return row.status === "failed" || row.status === "succeeded" ? row : undefined;
      });
      expect(ended).toMatchObject({ status: "failed", errorClass: "invalid_target" });
      expect(ended.errorMessage).toMatch(/^target_not_allowed/);
      expect(probe.connections).toBe(0);
    } finally {
      await platform.close();
    }
  });
});

describe("each client's results are its own", () => {
  it("another client's job of the same place, reading other content, leaves a job's results unchanged", async () => {
    let edition = "";
    const platform = await startJsonPlatform({ reviews: 3, edition: () => edition });
    // A second platform (another version's origin) serving the same place id with its own content.
    const mirror = await startJsonPlatform({ reviews: 3, edition: () => " (mirror)" });
    try {
      const victim = await client();
      const other = await client();
      const v = await makeVersion(db, "http-json", { platformUrl: platform.url });
      const m = await makeVersion(db, "http-json", { platformUrl: mirror.url });
      const place = uid("place");
      const run = async (actor: ApiKeyActor, version: string) => {
        const { value } = await createJob(
          withActor(deps, actor),
          ZCreateJobInput.parse({ requester_client_id: "c", platform_id: place, scraper_version: version }),
        );
        await waitFor(async () =>
          (await db.job.findUniqueOrThrow({ where: { id: value.id } })).status === "succeeded" ? true : undefined,
        );
        return value.id;
      };
      const texts = async (actor: ApiKeyActor, jobId: string) =>
        (await getJobDetail(serviceContext(actor, { db }), { job_id: jobId })).reviews.map((r) => r.text).sort();

      const victimJob = await run(victim, v.version);
      const before = await texts(victim, victimJob);
      expect(before).toEqual([`Review 0 of ${place}`, `Review 1 of ${place}`, `Review 2 of ${place}`]);

      // The platform's content changes; another client collects the place again, and from the mirror.
      edition = " (edited)";
      const otherJob = await run(other, v.version);
      const mirrorJob = await run(other, m.version);
      expect(await texts(victim, victimJob)).toEqual(before);
      expect((await texts(other, otherJob)).every((t) => t?.endsWith(" (edited)"))).toBe(true);
      expect((await texts(other, mirrorJob)).every((t) => t?.endsWith(" (mirror)"))).toBe(true);

      // Versions side by side: keyed by origin, place, review id and content.
      const rows = await db.review.findMany({
        where: { placeKey: `demo-platform:${place}`, externalId: `${place}-r0` },
        select: { origin: true, text: true },
      });
      expect(rows.map((r) => `${r.origin} ${r.text}`).sort()).toEqual(
        [
          `${mirror.url} Review 0 of ${place} (mirror)`,
          `${platform.url} Review 0 of ${place}`,
          `${platform.url} Review 0 of ${place} (edited)`,
        ].sort(),
      );
      // The same content again is the same version: a third job links the rows it finds.
      const again = await run(victim, v.version);
      expect(await texts(victim, again)).toEqual(await texts(other, otherJob));
      expect(await db.review.count({ where: { placeKey: `demo-platform:${place}` } })).toBe(9);
    } finally {
      await platform.close();
      await mirror.close();
    }
  });
});

// The product's own queue (docs/review-engine.md, "Queue"): jobs and callback deliveries are taken
// from their tables with FOR UPDATE SKIP LOCKED, in order, once due, and a run or an attempt whose
// lease passed is taken again. Real PostgreSQL; each test uses a work queue of its own.
import { afterAll, describe, expect, it } from "vitest";
import { testDb, uid } from "@/test/helpers";
import { makeContext, makeVersion, testSettings } from "@/test/review-fixtures";
import { takeDeliveries } from "./callbacks/take";
import { takeAndClaim } from "./job-claim";

const db = testDb();
afterAll(() => db.$disconnect());

async function queuedJobs(queue: string, specs: { priority?: number; runAfter?: Date }[]): Promise<string[]> {
  const v = await makeVersion(db, "noop");
  const ids: string[] = [];
  for (const s of specs) {
    const job = await db.job.create({
      data: {
        queue,
        requesterClientId: "q",
        placeId: "p",
        priority: s.priority ?? 5,
        runAfter: s.runAfter ?? new Date(Date.now() - 1_000),
        scraperVersionId: v.id,
        scraperVersion: v.version,
      },
    });
    ids.push(job.id);
  }
  return ids;
}

describe("taking jobs", () => {
  it("takes due jobs highest priority first, then oldest, up to the limit, and claims them", async () => {
    const queue = uid("q");
    const [a, b, c, d] = await queuedJobs(queue, [{ priority: 1 }, { priority: 9 }, { priority: 1 }, { priority: 5 }]);
    const first = await takeAndClaim(makeContext(db), { queue, leaseMs: 60_000, limit: 3 });
    expect(first.map((r) => r.job.id)).toEqual([b, d, a]);
    for (const run of first)
      expect(run).toMatchObject({ attempt: 1, from: "queued", job: { status: "running", attempts: 1 } });
    const lease = (await db.job.findUniqueOrThrow({ where: { id: b! } })).leaseUntil!;
    expect(lease.getTime()).toBeGreaterThan(Date.now() + 50_000);
    expect((await takeAndClaim(makeContext(db), { queue, leaseMs: 60_000, limit: 3 })).map((r) => r.job.id)).toEqual([
      c,
    ]);
    expect(await takeAndClaim(makeContext(db), { queue, leaseMs: 60_000, limit: 3 })).toEqual([]);
  });

  it("leaves jobs not yet due, jobs of another queue, and rows another worker holds", async () => {
    const queue = uid("q");
    const [future] = await queuedJobs(queue, [{ runAfter: new Date(Date.now() + 60_000) }]);
    await queuedJobs(uid("other"), [{}]);
    const [held, free] = await queuedJobs(queue, [{ priority: 9 }, { priority: 1 }]);
    let release!: () => void;
    const holding = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM jobs WHERE id = ${held}::uuid FOR UPDATE`;
      locked();
      await holding;
    });
    await isLocked;
    try {
      expect((await takeAndClaim(makeContext(db), { queue, leaseMs: 60_000, limit: 5 })).map((r) => r.job.id)).toEqual([
        free,
      ]);
    } finally {
      release();
      await holder;
    }
    expect((await takeAndClaim(makeContext(db), { queue, leaseMs: 60_000, limit: 5 })).map((r) => r.job.id)).toEqual([
      held,
    ]);
    expect((await db.job.findUniqueOrThrow({ where: { id: future! } })).status).toBe("queued");
  });

  it("takes a run whose lease passed again (its worker died), first, as a new run of the job", async () => {
    const queue = uid("q");
    const [lost, waiting] = await queuedJobs(queue, [{ priority: 0 }, { priority: 9 }]);
    const [taken] = await takeAndClaim(makeContext(db), { queue, leaseMs: 60_000, limit: 1 });
    expect(taken?.job.id).toBe(waiting);
    // A run still within its lease is not taken.
    const [claimedLost] = await takeAndClaim(makeContext(db), { queue, leaseMs: 60_000, limit: 1 });
    expect(claimedLost?.job.id).toBe(lost);
    expect(await takeAndClaim(makeContext(db), { queue, leaseMs: 60_000, limit: 1 })).toEqual([]);
    await db.job.update({ where: { id: lost! }, data: { leaseUntil: new Date(Date.now() - 1_000) } });
    const [again] = await takeAndClaim(makeContext(db), { queue, leaseMs: 60_000, limit: 1 });
    expect(again).toMatchObject({ attempt: 2, from: "running", job: { id: lost, status: "running", attempts: 2 } });
    const events = await db.jobEvent.findMany({ where: { jobId: lost! }, orderBy: { id: "asc" } });
    expect(events.map((e) => e.detail)).toEqual([{ attempt: 1 }, { attempt: 2, recovered: true }]);
  });
});

describe("taking callback deliveries", () => {
  async function deliveries(queue: string, hosts: string[], due = new Date(Date.now() - 1_000)) {
    const ids: string[] = [];
    for (const host of hosts) {
      const id = uid("msg");
      const row = await db.callbackDelivery.create({
        data: {
          webhookId: id,
          kind: "job_completed",
          queue,
          host,
          url: `http://${host}/hook`,
          payload: {},
          nextAttemptAt: due,
        },
      });
      ids.push(row.id);
    }
    return ids;
  }

  it("takes due deliveries oldest first, no more per host than it has free slots, and holds each for its lease", async () => {
    const deps = makeContext(db, testSettings());
    const queue = uid("q");
    await deliveries(queue, ["busy.test", "busy.test", "a.test", "a.test", "a.test", "b.test"]);
    await deliveries(queue, ["b.test"], new Date(Date.now() + 60_000));
    // busy.test has no free slot here; every other host has two.
    const taken = await takeDeliveries(deps, {
      queue,
      leaseMs: 30_000,
      perHost: 2,
      free: { "busy.test": 0 },
      limit: 10,
    });
    expect(taken.map((t) => t.host).sort()).toEqual(["a.test", "a.test", "b.test"]);
    const held = await db.callbackDelivery.findMany({ where: { id: { in: taken.map((t) => t.delivery.id) } } });
    for (const row of held) expect(row.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 20_000);
    // What is left: busy.test (once it has slots) and the third a.test.
    const rest = await takeDeliveries(deps, { queue, leaseMs: 30_000, perHost: 2, free: {}, limit: 10 });
    expect(rest.map((t) => t.host).sort()).toEqual(["a.test", "busy.test", "busy.test"]);
    expect(await takeDeliveries(deps, { queue, leaseMs: 30_000, perHost: 2, free: {}, limit: 10 })).toEqual([]);
  });
});

import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, Prisma, sqlRows } from "@/server/core/db";
import type { ApiKeyActor } from "@/server/services/actor";
import { withActor } from "@/server/services/context";
import { testDb, type Spawned } from "@/test/helpers";
import { makeContext, makeKey, makeVersion, spawnWorkerProcess, testSettings, waitFor } from "@/test/review-fixtures";
import { startTcpProxy } from "@/test/tcp-proxy";
import { createJob } from "./create-jobs";
import { ZCreateJobInput } from "./create-jobs.schema";

// A run's lease is short and renewed by its live worker (docs/review-engine.md, "Leases"): a worker killed
// or cut off from the database loses its run within seconds and another worker takes it over; a worker that
// lost its lease stops its run and its late result is refused; a slow but live worker keeps its run.

const db = testDb();
const settings = testSettings({ JOB_TIMEOUT_MS: "60000" });
let deps: ReturnType<typeof makeContext>;
let actor: ApiKeyActor;
beforeAll(async () => {
  deps = makeContext(db, settings);
  const k = await makeKey(db, ["jobs:write"]);
  actor = { kind: "apiKey", apiKeyId: k.id, scopes: ["jobs:write"] };
});
afterAll(() => db.$disconnect());

/** One request the platform received: when it came, when its client went away, and how to answer it. */
interface HeldRequest {
  at: number;
  closedAt: number | null;
  answered: boolean;
  answer: (reviews?: number) => void;
}

/** The platform's JSON reviews API, holding every request until the test answers it. */
async function startHoldingPlatform() {
  const requests: HeldRequest[] = [];
  const server = http.createServer((req, res) => {
    const id = /\/api\/places\/([^/]+)\/reviews/.exec(req.url ?? "")?.[1] ?? "none";
    const r: HeldRequest = {
      at: Date.now(),
      closedAt: null,
      answered: false,
      answer: (reviews = 0) => {
        r.answered = true;
        const list = Array.from({ length: reviews }, (_, i) => ({
          id: `${id}-r${i}`,
          author: "A",
          rating: 5,
          text: `request ${requests.indexOf(r) + 1}`,
          language: "en",
          publishedAt: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
          ownerReply: null,
        }));
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ place: { id, name: `Place ${id}` }, nextPage: null, reviews: list }));
      },
    };
    res.on("close", () => (r.closedAt = Date.now()));
    requests.push(r);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

function spawnWorker(env: Record<string, string> = {}): Promise<Spawned> {
  return spawnWorkerProcess(settings, {
    WORKER_CONCURRENCY: "1",
    JOB_TIMEOUT_MS: "60000",
    JOB_RETRY_DELAY_SECONDS: "1",
    ...env,
  });
}

async function newJob(platformUrl: string, placeId: string) {
  const v = await makeVersion(db, "http-json", { platformUrl });
  const { value: job } = await createJob(
    withActor(deps, actor),
    ZCreateJobInput.parse({ requester_client_id: "acme", platform_id: placeId, scraper_version: v.version }),
  );
  return job;
}

const dbNow = async () => (await sqlRows<{ now: Date }>(db, Prisma.sql`SELECT now() AS now`))[0]!.now;
const leaseOf = async (id: string) => (await db.job.findUniqueOrThrow({ where: { id } })).leaseUntil;
const events = (jobId: string) => db.jobEvent.findMany({ where: { jobId }, orderBy: { id: "asc" } });
const takenOver = (jobId: string) =>
  waitFor(
    async () => (await events(jobId)).find((e) => (e.detail as { recovered?: boolean }).recovered),
    20_000,
    "another worker to take the run over",
  );

describe("a run's lease", () => {
  it("of a worker killed with SIGKILL passes within 15 s with the default lease, and another worker takes the run over", async () => {
    const platform = await startHoldingPlatform();
    const workers: Spawned[] = [];
    try {
      // The default lease (JOB_LEASE_MS, JOB_HEARTBEAT_MS), a job timeout of a minute.
      workers.push(await spawnWorker());
      const job = await newJob(platform.url, "kill-lease");
      await waitFor(async () => (platform.requests.length > 0 ? true : undefined), 20_000, "the first run");
      workers.push(await spawnWorker());
      workers[0]!.child.kill("SIGKILL");
      await workers[0]!.exited;
      const killedAt = await dbNow();
      // The dead worker's last renewal leaves the lease at most JOB_LEASE_MS (10 s) ahead.
      const lease = await leaseOf(job.id);
      expect(lease!.getTime() - killedAt.getTime()).toBeLessThanOrEqual(10_000);
      const takeover = await takenOver(job.id);
      // Not before the lease passed (nobody ran it twice), and within 15 s of the kill.
      expect(takeover.createdAt.getTime()).toBeGreaterThanOrEqual(lease!.getTime());
      expect(takeover.createdAt.getTime() - killedAt.getTime()).toBeLessThanOrEqual(15_000);
      await waitFor(async () => (platform.requests.length > 1 ? true : undefined), 10_000, "the second run");
      platform.requests[1]!.answer(2);
      const done = await waitFor(async () => {
        const row = await db.job.findUniqueOrThrow({ where: { id: job.id } });
        return row.status === "succeeded" ? row : undefined;
      });
      expect(done).toMatchObject({ attempts: 2, reviewCount: 2 });
      expect((await events(job.id)).map((e) => e.status)).toEqual(["queued", "running", "running", "succeeded"]);
    } finally {
      for (const w of workers) if (w.child.exitCode === null) w.child.kill("SIGKILL");
      await platform.close();
    }
  });

  const SHORT = { JOB_LEASE_MS: "2000", JOB_HEARTBEAT_MS: "400" };

  it("of a worker cut off from the database passes: the worker stops its run before another takes it over, and writes nothing when it is back", async () => {
    const platform = await startHoldingPlatform();
    const proxy = await startTcpProxy(Number(new URL(process.env.DATABASE_URL!).port));
    const url = new URL(process.env.DATABASE_URL!);
    url.port = String(proxy.port);
    const workers: Spawned[] = [];
    try {
      workers.push(await spawnWorker({ ...SHORT, DATABASE_URL: url.toString() }));
      const job = await newJob(platform.url, "cut-scraping");
      await waitFor(async () => (platform.requests.length > 0 ? true : undefined), 20_000, "the first run");
      workers.push(await spawnWorker(SHORT));
      proxy.pause();
      const takeover = await takenOver(job.id);
      await waitFor(async () => (platform.requests.length > 1 ? true : undefined), 10_000, "the second run");
      // The cut worker gave its run up (its platform request aborted) before the second run began.
      const [first, second] = platform.requests;
      expect(first!.closedAt).not.toBeNull();
      expect(first!.closedAt!).toBeLessThanOrEqual(second!.at);
      expect(takeover.detail).toMatchObject({ attempt: 2 });
      // Back on the network, the first worker writes nothing; the second run ends the job.
      proxy.resume();
      await waitFor(
        async () => (/"outcome":"lease_lost"/.test(workers[0]!.output()) ? true : undefined),
        10_000,
        "the cut worker to report its lost lease",
      );
      second!.answer(1);
      const done = await waitFor(async () => {
        const row = await db.job.findUniqueOrThrow({ where: { id: job.id } });
        return row.status === "succeeded" ? row : undefined;
      });
      expect(done).toMatchObject({ attempts: 2, reviewCount: 1 });
      expect((await events(job.id)).map((e) => e.status)).toEqual(["queued", "running", "running", "succeeded"]);
    } finally {
      for (const w of workers) if (w.child.exitCode === null) w.child.kill("SIGKILL");
      await proxy.close();
      await platform.close();
    }
  });

  it("refuses the late result of a cut-off worker whose run was taken over", async () => {
    const platform = await startHoldingPlatform();
    const proxy = await startTcpProxy(Number(new URL(process.env.DATABASE_URL!).port));
    const url = new URL(process.env.DATABASE_URL!);
    url.port = String(proxy.port);
    const workers: Spawned[] = [];
    try {
      workers.push(await spawnWorker({ ...SHORT, DATABASE_URL: url.toString() }));
      const job = await newJob(platform.url, "cut-finishing");
      await waitFor(async () => (platform.requests.length > 0 ? true : undefined), 20_000, "the first run");
      workers.push(await spawnWorker(SHORT));
      // The cut comes as the first run ends: its result is on its way when the network goes.
      proxy.pause();
      platform.requests[0]!.answer(0);
      await takenOver(job.id);
      await waitFor(async () => (platform.requests.length > 1 ? true : undefined), 10_000, "the second run");
      // The late result reaches the database while the second run holds the job: refused.
      proxy.resume();
      await waitFor(
        async () => (/"outcome":"superseded"/.test(workers[0]!.output()) ? true : undefined),
        10_000,
        "the cut worker's run to end without writing",
      );
      expect(await db.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({
        status: "running",
        attempts: 2,
      });
      platform.requests[1]!.answer(1);
      const done = await waitFor(async () => {
        const row = await db.job.findUniqueOrThrow({ where: { id: job.id } });
        return row.status === "succeeded" ? row : undefined;
      });
      expect(done).toMatchObject({ attempts: 2, reviewCount: 1 });
      const all = await events(job.id);
      expect(all.map((e) => e.status)).toEqual(["queued", "running", "running", "succeeded"]);
      expect(all[3]!.detail).toMatchObject({ attempt: 2 });
    } finally {
      for (const w of workers) if (w.child.exitCode === null) w.child.kill("SIGKILL");
      await proxy.close();
      await platform.close();
    }
  });

  it("of a slow, live worker is renewed: the run outlives several leases and nobody else runs it", async () => {
    const platform = await startHoldingPlatform();
    const workers: Spawned[] = [];
    const env = { JOB_LEASE_MS: "1000", JOB_HEARTBEAT_MS: "250" };
    try {
      workers.push(await spawnWorker(env), await spawnWorker(env));
      const job = await newJob(platform.url, "slow-alive");
      await waitFor(async () => (platform.requests.length > 0 ? true : undefined), 20_000, "the run");
      const before = await leaseOf(job.id);
      // Four leases long.
      await new Promise((r) => setTimeout(r, 4_000));
      const after = await leaseOf(job.id);
      expect(after!.getTime()).toBeGreaterThan(before!.getTime() + 2_000);
      expect(platform.requests).toHaveLength(1);
      platform.requests[0]!.answer(1);
      const done = await waitFor(async () => {
        const row = await db.job.findUniqueOrThrow({ where: { id: job.id } });
        return row.status === "succeeded" ? row : undefined;
      });
      expect(done).toMatchObject({ attempts: 1, reviewCount: 1, leaseUntil: null });
      expect((await events(job.id)).map((e) => e.status)).toEqual(["queued", "running", "succeeded"]);
      expect(platform.requests).toHaveLength(1);
    } finally {
      for (const w of workers) if (w.child.exitCode === null) w.child.kill("SIGKILL");
      await platform.close();
    }
  });

  it("is not held up by a transaction cut off by the network: PostgreSQL ends it within a lease, freeing the row", async () => {
    const platform = await startHoldingPlatform();
    const proxy = await startTcpProxy(Number(new URL(process.env.DATABASE_URL!).port));
    const url = new URL(process.env.DATABASE_URL!);
    url.port = String(proxy.port);
    // A client as the worker makes it (src/worker/index.ts), with a lease of a second.
    const cut = createDb(url.toString(), { max: 1, idleInTransactionMs: 1_000 });
    try {
      const job = await newJob(platform.url, "cut-in-transaction");
      let locked!: () => void;
      let end!: () => void;
      const lockTaken = new Promise<void>((r) => (locked = r));
      const ended = new Promise<void>((r) => (end = r));
      const tx = cut
        .$transaction(
          async (t) => {
            await t.$queryRaw`SELECT id FROM jobs WHERE id = ${job.id}::uuid FOR UPDATE`;
            locked();
            await ended;
          },
          { timeout: 60_000 },
        )
        .catch(() => undefined);
      await lockTaken;
      // The network goes while the transaction holds the job's row: the row is free again within the lease.
      proxy.pause();
      const free = await waitFor(
        async () => {
          const rows = await sqlRows<{ id: string }>(
            db,
            Prisma.sql`SELECT id::text AS id FROM jobs WHERE id = ${job.id}::uuid FOR UPDATE SKIP LOCKED`,
          );
          return rows.length === 1 ? true : undefined;
        },
        10_000,
        "the cut transaction's row to be free",
      );
      expect(free).toBe(true);
      proxy.resume();
      end();
      await tx;
    } finally {
      await proxy.close();
      await cut.$disconnect().catch(() => undefined);
      await platform.close();
    }
  });
});

// Issue 14, point 4: one callback attempt takes at most CALLBACK_TIMEOUT_MS whatever the receiver
// drips, answers above 64 KiB are cut and count as received, and at most CALLBACK_MAX_PER_HOST
// attempts run at once against one host, so a slow receiver cannot stall the others. Loopback only.
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/server/services/actor";
import { testDb } from "@/test/helpers";
import {
  makeContext,
  makeKey,
  makeVersion,
  startReceiver,
  startTestWorker,
  testSettings,
  waitFor,
} from "@/test/review-fixtures";
import { createJob } from "./create-jobs";
import { ZCreateJobInput } from "./create-jobs.schema";
import { withActor } from "@/server/services/context";

const TIMEOUT_MS = 1_500;
const PER_HOST = 2;
const db = testDb();
const deps = makeContext(
  db,
  testSettings({
    CALLBACK_TIMEOUT_MS: String(TIMEOUT_MS),
    CALLBACK_MAX_PER_HOST: String(PER_HOST),
    CALLBACK_BACKOFF_BASE_MS: "100",
  }),
);
let stopWorker: () => Promise<void>;
beforeAll(async () => {
  stopWorker = await startTestWorker(deps, { scrape: 4, callbacks: 8 });
});
afterAll(async () => {
  await stopWorker();
  await db.$disconnect();
});

/**
 * A receiver that answers one byte of its HTTP answer per second, forever. It notes when each
 * connection opened and when the client let go of it, to tell how many attempts it had at once.
 */
async function startDripper() {
  const spans: { from: number; to: number }[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    const span = { from: performance.now(), to: Number.POSITIVE_INFINITY };
    spans.push(span);
    sockets.add(socket);
    const answer = Buffer.from(
      "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 100000\r\n\r\n" + ".".repeat(100_000),
    );
    let at = 0;
    const timer = setInterval(() => socket.write(answer.subarray(at, ++at)), 1_000);
    socket.on("error", () => {});
    socket.resume(); // reads (and drops) the request, so the client's end is seen at once
    socket.on("close", () => {
      clearInterval(timer);
      span.to = performance.now();
      sockets.delete(socket);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    total: () => spans.length,
    /** Most connections open at one moment; a client's close seen up to 50 ms late counts as closed. */
    maxOpen: () => Math.max(0, ...spans.map((s) => spans.filter((o) => o.from <= s.from && o.to - 50 > s.from).length)),
    close: () => new Promise<void>((r) => (server.close(() => r()), sockets.forEach((s) => s.destroy()))),
  };
}

async function jobsTo(url: string, n: number): Promise<string[]> {
  const k = await makeKey(db, ["jobs:write"]);
  const actor: Actor = { kind: "apiKey", apiKeyId: k.id, scopes: ["jobs:write"] };
  const v = await makeVersion(db, "noop");
  const ids: string[] = [];
  for (let i = 0; i < n; i += 1) {
    ids.push(
      (
        await createJob(
          withActor(deps, actor),
          ZCreateJobInput.parse({
            requester_client_id: "c",
            platform_id: `p-${i}`,
            scraper_version: v.version,
            callback_url: url,
          }),
        )
      ).value.id,
    );
  }
  return ids;
}

describe("callback delivery under slow receivers", () => {
  it("cuts a receiver dripping one byte per second at the deadline, while another receiver's callbacks are delivered on time", async () => {
    const dripper = await startDripper();
    const good = await startReceiver([200]);
    try {
      const slow = await jobsTo(dripper.url, 6);
      await waitFor(async () => (dripper.total() >= PER_HOST ? true : undefined), 10_000, "the dripper to be called");
      const fast = await jobsTo(good.url, 6);
      const delivered = await waitFor(
        async () => {
          const rows = await db.job.findMany({
            where: { id: { in: fast } },
            select: { finishedAt: true, callbackDeliveredAt: true, callbackState: true },
          });
          return rows.every((r) => r.callbackState === "delivered") ? rows : undefined;
        },
        15_000,
        "the good receiver's callbacks",
      );
      // Each was delivered well within one attempt's time limit of its job's end: none waited behind a dripping attempt.
      for (const r of delivered)
        expect(r.callbackDeliveredAt!.getTime() - r.finishedAt!.getTime()).toBeLessThan(TIMEOUT_MS);
      expect(good.received).toHaveLength(6);

      // Every attempt at the dripper ended at the deadline as a timeout, and never more than PER_HOST ran at once.
      const attempts = await waitFor(
        async () => {
          const rows = await db.callbackAttempt.findMany({ where: { delivery: { jobId: { in: slow } } } });
          return rows.length >= 6 ? rows : undefined;
        },
        20_000,
        "attempts at the dripper",
      );
      for (const a of attempts) {
        expect(a.error).toBe("timeout");
        expect(a.durationMs).toBeLessThan(TIMEOUT_MS + 1_000);
      }
      expect(dripper.maxOpen()).toBeLessThanOrEqual(PER_HOST);
      const states = await db.job.findMany({ where: { id: { in: slow } }, select: { callbackState: true } });
      expect(states.every((s) => s.callbackState === "pending")).toBe(true);
    } finally {
      await dripper.close();
      await good.close();
    }
  });

  it("cuts an answer above 64 KiB and counts it as received", async () => {
    const server = http.createServer((_req, res) =>
      res.writeHead(200, { "content-type": "text/plain" }).end("x".repeat(1024 * 1024)),
    );
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const [id] = await jobsTo(`http://127.0.0.1:${(server.address() as AddressInfo).port}/big`, 1);
      const row = await waitFor(
        async () => {
          const j = await db.job.findUniqueOrThrow({ where: { id: id! } });
          return j.callbackState === "delivered" ? j : undefined;
        },
        10_000,
        "the large answer's callback to be delivered",
      );
      expect(row).toMatchObject({ callbackAttempts: 1, callbackLastStatus: 200 });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

import { webcrypto } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { parseConfig } from "@/server/core/config";
import type { Db, Prisma } from "@/server/core/db";
import { createLogger } from "@/server/core/logger";
import { ZReviewSettings, type TReviewSettings } from "@/server/queue/settings";
import { SYSTEM, type SystemActor } from "@/server/services/actor";
import { sealerOf, serviceContext, type Sealer, type ServiceContext } from "@/server/services/context";
import { createApiKey } from "@/server/services/reviews/api-keys";
import { invalidateRegistry } from "@/server/services/reviews/registry-cache";
import { reviewSystemContext } from "@/server/services/reviews/system-context";
import type { TApiScope } from "@/server/services/reviews/schemas";
import { startQueueWorkers, type WorkerCounts } from "@/worker/queue-workers";
import { freePort, spawnTsx, uid, waitForHttp, type Spawned } from "./helpers";

/** Settings of the review engine for tests: private callbacks allowed, short backoffs, quick polling. */
export function testSettings(overrides: Record<string, string> = {}): TReviewSettings {
  const name = uid("t").replace(/-/g, "_").toLowerCase();
  return parseConfig(ZReviewSettings, {
    CALLBACK_ALLOW_PRIVATE: "1",
    CALLBACK_BACKOFF_BASE_MS: "50",
    CALLBACK_BACKOFF_MAX_MS: "200",
    JOB_RETRY_DELAY_SECONDS: "1",
    WORKER_POLL_MS: "100",
    // A work queue per test file: workers of one file never take another file's jobs or executions.
    JOB_QUEUE: name,
    ...overrides,
  });
}

/** The sealer on the test key ring (SECRETS_KEYS of the integration setup). */
export function testSealer(): Sealer {
  return sealerOf(process.env.SECRETS_KEYS ?? "");
}

/** The system's service context on the test database (the settings' own work queue). */
export function makeContext(db: Db, settings = testSettings()): ServiceContext<SystemActor> {
  return reviewSystemContext({ db, sealer: testSealer(), review: settings });
}

export async function startTestWorker(
  ctx: ServiceContext<SystemActor>,
  counts: WorkerCounts = { scrape: 2, callbacks: 2 },
): Promise<() => Promise<void>> {
  const workers = startQueueWorkers(ctx, counts, createLogger("test-worker"));
  return async () => {
    await workers.close({ graceMs: 5_000 });
  };
}

/** A new API key with the scopes; returns the key text and its id. */
export async function makeKey(db: Db, scopes: TApiScope[], extra: { rate_limit_per_minute?: number } = {}) {
  const created = await createApiKey(serviceContext(SYSTEM, { db, sealer: testSealer() }), {
    name: uid("key"),
    scopes,
    ...extra,
  });
  return { id: created.id, key: created.key, secret: created.callback_secret };
}

/** A scraper version with a unique label (share 0, so tests never disturb each other's routing). */
export async function makeVersion(db: Db, implementation = "noop", config: Record<string, unknown> = {}) {
  invalidateRegistry();
  return db.scraperVersion.create({
    data: {
      platform: "platform",
      version: uid("v"),
      variant: "default",
      implementation,
      config: config as Prisma.InputJsonValue,
      trafficPercent: 0,
    },
  });
}

/** Polls until `check` returns a value (not undefined) or the deadline passes. */
export async function waitFor<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 30_000,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  status: number;
}

/**
 * A local callback receiver answering with the statuses given in turn (the last one repeats); a
 * status of 0 holds that request open without an answer (a receiver that hangs) until close().
 */
export async function startReceiver(
  statuses: number[],
): Promise<{ url: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const status = statuses[Math.min(received.length, statuses.length - 1)] ?? 200;
      received.push({ headers: req.headers, body, status });
      if (status !== 0) res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  const close = () => new Promise<void>((r) => (server.close(() => r()), server.closeAllConnections()));
  return { url: `http://127.0.0.1:${port}/hook`, received, close };
}

/**
 * The worker as a real process on the test database (node with tsx's loader, so a SIGKILL reaches it),
 * on the settings' work queue; resolves once its /health answers, with its port (WORKER_PORT).
 */
export async function spawnWorkerProcess(
  settings: TReviewSettings,
  env: Record<string, string> = {},
): Promise<Spawned & { port: number }> {
  const port = await freePort();
  const run = spawnTsx("src/worker/index.ts", [], {
    WORKER_PORT: String(port),
    JOB_QUEUE: settings.JOB_QUEUE,
    CALLBACK_ALLOW_PRIVATE: "1",
    ...env,
  });
  await waitForHttp(`http://127.0.0.1:${port}/health`);
  return { ...run, port };
}

/** Standard Webhooks verification written from the specification, on WebCrypto (not the sender's code). */
export async function verifyStandardWebhook(secret: string, r: Received): Promise<boolean> {
  const id = String(r.headers["webhook-id"]);
  const ts = String(r.headers["webhook-timestamp"]);
  if (Math.abs(Date.now() / 1000 - Number(ts)) > 300) return false;
  const keyBytes = Uint8Array.from(atob(secret.slice("whsec_".length)), (c) => c.charCodeAt(0));
  const key = await webcrypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  const signed = new TextEncoder().encode(`${id}.${ts}.${r.body}`);
  for (const part of String(r.headers["webhook-signature"]).split(" ")) {
    const [version, sig] = part.split(",");
    if (version !== "v1" || !sig) continue;
    const bytes = Uint8Array.from(atob(sig), (c) => c.charCodeAt(0));
    if (await webcrypto.subtle.verify("HMAC", key, bytes, signed)) return true;
  }
  return false;
}

/** A tiny stand-in for the platform's JSON reviews API (`/api/places/<id>/reviews`); `hold` keeps requests open. */
export async function startJsonPlatform(
  options: { reviews?: number; hold?: () => boolean; edition?: () => string } = {},
) {
  let requests = 0;
  const held: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    requests += 1;
    if (options.hold?.()) {
      held.push(res);
      return;
    }
    const id = /\/api\/places\/([^/]+)\/reviews/.exec(req.url ?? "")?.[1] ?? "none";
    const reviews = Array.from({ length: options.reviews ?? 3 }, (_, i) => ({
      id: `${id}-r${i}`,
      author: `Author ${i}`,
      rating: (i % 5) + 1,
      text: `Review ${i} of ${id}${options.edition?.() ?? ""}`,
      language: "en",
      publishedAt: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
      ownerReply: null,
    }));
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ place: { id, name: `Place ${id}` }, nextPage: null, reviews }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

// Issue 41: /metrics was open on every process unless METRICS_TOKEN was set. A production start
// (NODE_ENV=production, as the deploy image runs) without a token now answers 404; with one, only the
// bearer reads it; a development start that listens on loopback only stays open without a token.
// The broker and the worker as real processes; the web app's choice is the same function (src/web/server.ts).
import { afterAll, describe, expect, it } from "vitest";
import { freePort, spawnTsx, testDb, waitForHttp, type Spawned } from "@/test/helpers";
import { spawnWorkerProcess, testSettings } from "@/test/review-fixtures";

const db = testDb();
const TOKEN = "a-metrics-token-of-some-length";
afterAll(() => db.$disconnect());

const get = (url: string, token?: string) =>
  fetch(url, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });

async function broker(env: Record<string, string>): Promise<Spawned & { base: string }> {
  const port = await freePort();
  const run = spawnTsx("broker/index.ts", [], {
    DATABASE_URL: process.env.DATABASE_URL,
    BROKER_PORT: String(port),
    LOG_LEVEL: "warn",
    ...env,
  });
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(`${base}/health`);
  return { ...run, base };
}

async function stop(run: Spawned): Promise<void> {
  if (run.child.exitCode === null) run.child.kill("SIGTERM");
  await run.exited;
}

describe("/metrics is closed by default in production", () => {
  it("a production broker without METRICS_TOKEN answers 404, even to a bearer", { timeout: 90_000 }, async () => {
    const run = await broker({ NODE_ENV: "production", BROKER_HOST: "127.0.0.1" });
    try {
      const none = await get(`${run.base}/metrics`);
      expect(none.status).toBe(404);
      expect(await none.text()).not.toMatch(/broker_/);
      expect((await get(`${run.base}/metrics`, TOKEN)).status).toBe(404);
      // The rest of the broker is as before.
      expect((await get(`${run.base}/ready`)).status).toBe(200);
    } finally {
      await stop(run);
    }
  });

  it("a production broker with METRICS_TOKEN answers the bearer only", { timeout: 90_000 }, async () => {
    const run = await broker({ NODE_ENV: "production", METRICS_TOKEN: TOKEN });
    try {
      expect((await get(`${run.base}/metrics`)).status).toBe(401);
      const ok = await get(`${run.base}/metrics`, TOKEN);
      expect(ok.status).toBe(200);
      expect(await ok.text()).toMatch(/^broker_db_up 1$/m);
    } finally {
      await stop(run);
    }
  });

  it("a development broker answers without a token on loopback only", { timeout: 90_000 }, async () => {
    const loopback = await broker({ NODE_ENV: "development", BROKER_HOST: "127.0.0.1" });
    try {
      const open = await get(`${loopback.base}/metrics`);
      expect(open.status).toBe(200);
      expect(await open.text()).toMatch(/^broker_db_up 1$/m);
    } finally {
      await stop(loopback);
    }
    // Listening on every interface, a development start is closed too.
    const everywhere = await broker({ NODE_ENV: "development", BROKER_HOST: "0.0.0.0" });
    try {
      expect((await get(`${everywhere.base}/metrics`)).status).toBe(404);
    } finally {
      await stop(everywhere);
    }
  });

  it("a production worker without METRICS_TOKEN answers 404; with one, the bearer", { timeout: 90_000 }, async () => {
    const settings = testSettings();
    const closed = await spawnWorkerProcess(settings, { NODE_ENV: "production", WORKER_HOST: "127.0.0.1" });
    try {
      expect((await get(`http://127.0.0.1:${closed.port}/metrics`)).status).toBe(404);
    } finally {
      await stop(closed);
    }
    const guarded = await spawnWorkerProcess(settings, { NODE_ENV: "production", METRICS_TOKEN: TOKEN });
    try {
      expect((await get(`http://127.0.0.1:${guarded.port}/metrics`)).status).toBe(401);
      expect((await get(`http://127.0.0.1:${guarded.port}/metrics`, TOKEN)).status).toBe(200);
    } finally {
      await stop(guarded);
    }
  });
});

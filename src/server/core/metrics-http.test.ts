import http from "node:http";
import type { AddressInfo } from "node:net";
import { Counter, Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleOpsRoute, isLoopbackHost, metricsAccess, metricsAuthorized, ZMetricsToken } from "./metrics-http";
import { Readiness } from "./readiness";

const TOKEN = "a-metrics-token-of-some-length";

describe("metricsAuthorized", () => {
  it("lets every scrape through without a token (the caller decides whether that is open)", () => {
    expect(metricsAuthorized(undefined, undefined)).toBe(true);
    expect(metricsAuthorized("Bearer whatever", undefined)).toBe(true);
  });

  it("needs `Bearer <token>` exactly when a token is set", () => {
    expect(metricsAuthorized(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(metricsAuthorized(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    for (const wrong of [
      undefined,
      "",
      "Bearer",
      "Bearer ",
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(1)}`,
      TOKEN,
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN} extra`,
    ]) {
      expect(metricsAuthorized(wrong, TOKEN), String(wrong)).toBe(false);
    }
    expect(metricsAuthorized([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`], TOKEN)).toBe(false);
  });

  it("refuses a token shorter than 16 characters", () => {
    expect(ZMetricsToken.safeParse("short").success).toBe(false);
    expect(ZMetricsToken.parse(undefined)).toBeUndefined();
  });
});

describe("metricsAccess (issue 41: closed by default in production)", () => {
  it("needs the token when one is set, wherever the process runs", () => {
    for (const production of [true, false])
      for (const host of ["0.0.0.0", "127.0.0.1"])
        expect(metricsAccess({ token: TOKEN, production, host })).toEqual({ token: TOKEN });
  });

  it("is open without a token only on a development start listening on loopback only", () => {
    expect(metricsAccess({ token: undefined, production: false, host: "127.0.0.1" })).toBe("open");
    expect(metricsAccess({ token: undefined, production: false, host: "::1" })).toBe("open");
    expect(metricsAccess({ token: undefined, production: false, host: "localhost" })).toBe("open");
    expect(metricsAccess({ token: undefined, production: true, host: "127.0.0.1" })).toBe("closed");
    for (const host of ["0.0.0.0", "::", "", "10.0.0.5", "mesh.example.org"])
      expect(metricsAccess({ token: undefined, production: false, host }), host).toBe("closed");
  });

  it("knows loopback addresses", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "LOCALHOST", "::ffff:127.0.0.1"])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ["0.0.0.0", "::", "128.0.0.1", "::2", "localhost.example.org", ""])
      expect(isLoopbackHost(host), host).toBe(false);
  });
});

describe("handleOpsRoute", () => {
  const registry = new Registry();
  new Counter({ name: "test_things_total", help: "things", registers: [registry] }).inc(3);
  const readiness = new Readiness({ database: () => true });
  let server: http.Server;
  let base = "";
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const pathname = (req.url ?? "/").split("?")[0] ?? "/";
      if (
        !handleOpsRoute(req, res, pathname, {
          registry,
          metrics: req.headers["x-test-closed"] ? "closed" : req.headers["x-test-guarded"] ? { token: TOKEN } : "open",
          readiness,
        })
      ) {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("serves the registry as Prometheus text, open or behind the token", async () => {
    const open = await fetch(`${base}/metrics?x=1`);
    expect(open.status).toBe(200);
    expect(open.headers.get("content-type")).toContain("text/plain");
    expect(await open.text()).toMatch(/^test_things_total 3$/m);
    const refused = await fetch(`${base}/metrics`, { headers: { "x-test-guarded": "1" } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
    expect(await refused.text()).not.toContain("test_things_total");
    const allowed = await fetch(`${base}/metrics`, {
      headers: { "x-test-guarded": "1", authorization: `Bearer ${TOKEN}` },
    });
    expect(allowed.status).toBe(200);
    const closed = await fetch(`${base}/metrics`, {
      headers: { "x-test-closed": "1", authorization: `Bearer ${TOKEN}` },
    });
    expect(closed.status).toBe(404);
    expect(await closed.text()).not.toContain("test_things_total");
  });

  it("answers /ready 200 then 503 once draining, and leaves other requests alone", async () => {
    const up = await fetch(`${base}/ready`);
    expect(up.status).toBe(200);
    expect(await up.json()).toEqual({ ready: true, checks: { database: true, accepting: true } });
    expect((await fetch(`${base}/ready`, { method: "POST" })).status).toBe(404);
    expect((await fetch(`${base}/other`)).status).toBe(404);
    readiness.drain();
    const draining = await fetch(`${base}/ready`);
    expect(draining.status).toBe(503);
    expect(await draining.json()).toMatchObject({ ready: false, checks: { accepting: false } });
  });
});

import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";

// The web app's /metrics and /ready on the production server (src/web/server.ts answers them before
// Next.js; docs/observability.md). A production start answers /metrics only to METRICS_TOKEN's bearer
// (playwright.config.ts sets it); without the bearer it is 401.
const METRICS_TOKEN = process.env.E2E_METRICS_TOKEN ?? "e2e-metrics-token-0123456789";

/** The value of one series of the exposition, or undefined when it is absent. */
function series(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`)) continue;
    const inner = line.slice(name.length + 1, line.lastIndexOf("}"));
    const parts = inner.split(/,(?=\w+=")/);
    if (wanted.every((w) => parts.includes(w))) return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return undefined;
}

test("/metrics counts requests by route template, never by raw path", async ({ request }) => {
  const jobId = randomUUID();
  const token = `tok${randomUUID().replace(/-/g, "")}`;
  expect((await request.get("/api/health")).status()).toBe(200);
  expect((await request.get(`/api/jobs/${jobId}`)).status()).toBe(401);
  expect((await request.get("/api/public/stats")).status()).toBe(200);
  expect((await request.get(`/es/join/${token}`)).status()).toBeLessThan(500);
  expect((await request.get("/de")).status()).toBe(200);
  expect((await request.get(`/no-such-${jobId}`, { maxRedirects: 0 })).status()).toBeGreaterThanOrEqual(300);

  expect((await request.get("/metrics")).status()).toBe(401);
  const res = await request.get("/metrics", { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("text/plain");
  const text = await res.text();
  expect(
    series(text, "http_requests_total", { route: "/api/health", method: "GET", status: "200" }),
  ).toBeGreaterThanOrEqual(1);
  // The REST API inside /api/[...rest] is labelled with its own path template.
  expect(
    series(text, "http_requests_total", { route: "/api/jobs/[job_id]", method: "GET", status: "401" }),
  ).toBeGreaterThanOrEqual(1);
  expect(
    series(text, "http_requests_total", { route: "/api/public/stats", method: "GET", status: "200" }),
  ).toBeGreaterThanOrEqual(1);
  expect(
    series(text, "http_requests_total", { route: "/[locale]", method: "GET", status: "200" }),
  ).toBeGreaterThanOrEqual(1);
  expect(text).toMatch(
    /^http_requests_total\{route="\/\[locale\]\/join\/\[token\]",method="GET",status="\d{3}"\} \d+/m,
  );
  expect(
    series(text, "http_request_duration_seconds_count", { route: "/api/health", method: "GET", status_class: "2xx" }),
  ).toBeGreaterThanOrEqual(1);
  // No id a client sent became a label value; /metrics and /ready themselves are not counted.
  expect(text).not.toContain(jobId);
  expect(text).not.toContain(token);
  expect(text).not.toMatch(/route="\/(metrics|ready)"/);
  expect(text).toMatch(/^web_db_up 1$/m);
  expect(text).toMatch(/^web_process_resident_memory_bytes \d+/m);
});

test("/ready is 200 with its checks while the web app can take requests", async ({ request }) => {
  const res = await request.get("/ready");
  expect(res.status()).toBe(200);
  expect(res.headers()["cache-control"]).toBe("no-store");
  expect(await res.json()).toEqual({ ready: true, checks: { database: true, accepting: true } });
});

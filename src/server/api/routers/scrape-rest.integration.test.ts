import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDb, uid } from "@/test/helpers";
import { makeKey, makeVersion } from "@/test/review-fixtures";
import { openApiDocument } from "../openapi/document";
import { appRouter } from "../root";
import { handleRest } from "../openapi/rest-handler";
import { createContext, type SessionUser } from "../trpc";

process.env.CALLBACK_ALLOW_PRIVATE = "1";
const db = testDb();
afterAll(() => db.$disconnect());

/** The REST handler exactly as /api/[...rest] serves it. */
async function rest(
  key: string | null,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  user: SessionUser | null = null,
) {
  const req = new Request(`http://test/api${path}`, {
    method,
    headers: {
      ...headers,
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const res = await handleRest(req, () => createContext({ user, db, headers: req.headers }));
  return { res, json: (await res.json()) as Record<string, unknown> };
}

let version: string;
beforeAll(async () => {
  version = (await makeVersion(db, "noop")).version;
});
const job = (extra: Record<string, unknown> = {}) => ({
  requester_client_id: "acme",
  platform_id: "p-0001",
  scraper_version: version,
  ...extra,
});

describe("review engine REST API", () => {
  it("serves every endpoint at the spec's path with its scope rule (403 without it, admin includes all)", async () => {
    const all = await makeKey(db, ["jobs:read", "jobs:write"]);
    const admin = await makeKey(db, ["admin"]);
    const created = await rest(all.key, "POST", "/scrape/platform-reviews/batch", {
      requester_client_id: "acme",
      jobs: [{ platform_id: "p-1", scraper_version: version }],
    });
    expect(created.res.status).toBe(200);
    const batchId = created.json.id as string;
    const jobId = (created.json.job_ids as string[])[0] as string;
    const scraperId = (await makeVersion(db, "noop")).id;
    const cases: [string, string, unknown, "jobs:read" | "jobs:write" | "admin"][] = [
      ["POST", "/scrape", job(), "jobs:write"],
      ["POST", "/scrape/platform-reviews", job(), "jobs:write"],
      [
        "POST",
        "/scrape/platform-reviews/batch",
        { requester_client_id: "acme", jobs: [{ platform_id: "p", scraper_version: version }] },
        "jobs:write",
      ],
      ["GET", "/batches", undefined, "jobs:read"],
      ["GET", `/batches/${batchId}`, undefined, "jobs:read"],
      ["GET", "/jobs", undefined, "jobs:read"],
      ["GET", `/jobs/${jobId}`, undefined, "jobs:read"],
      ["GET", "/dashboard/overview", undefined, "jobs:read"],
      ["GET", "/dashboard/by-client", undefined, "jobs:read"],
      ["GET", "/dashboard/problems", undefined, "jobs:read"],
      ["GET", "/dashboard/by-version", undefined, "jobs:read"],
      ["GET", "/admin/scrapers", undefined, "admin"],
      ["GET", `/admin/scrapers/${scraperId}`, undefined, "admin"],
      ["POST", "/admin/scrapers", { platform: uid("plat"), version: "v9", implementation: "noop" }, "admin"],
      ["PATCH", `/admin/scrapers/${scraperId}`, { description: "patched" }, "admin"],
      ["PUT", `/admin/scrapers/${scraperId}/traffic`, { traffic_percent: 0 }, "admin"],
      ["GET", "/admin/api-keys", undefined, "admin"],
      ["DELETE", `/batches/${batchId}`, undefined, "jobs:write"],
      ["GET", "/schedules", undefined, "jobs:read"],
      ["GET", "/alert-rules/meshes", undefined, "jobs:read"],
    ];
    for (const [method, path, body, scope] of cases) {
      const other = await makeKey(db, scope === "jobs:read" ? ["jobs:write"] : ["jobs:read"]);
      const denied = await rest(other.key, method, path, body);
      expect(denied.res.status, `${method} ${path} without ${scope}`).toBe(403);
      expect(denied.json).toMatchObject({ error: { code: "FORBIDDEN", message: "missing_scope" } });
      const withScope = await makeKey(db, [scope]);
      const ok = await rest(withScope.key, method, path, body);
      // A key sees its own jobs and batches only: another key's batch is 404 (never 403, which would leak it).
      const owned = path.includes(batchId) || path.includes(jobId);
      expect(ok.res.status, `${method} ${path} with ${scope}: ${JSON.stringify(ok.json)}`).toBe(owned ? 404 : 200);
      if (owned) {
        expect((await rest(all.key, method, path, body)).res.status, `${method} ${path} as owner`).toBe(200);
        if (method === "GET")
          expect((await rest(admin.key, method, path)).res.status, `${method} ${path} as admin`).toBe(200);
      }
    }
    const doc = openApiDocument("http://test/api") as unknown as { paths: Record<string, Record<string, unknown>> };
    for (const p of [
      "/scrape",
      "/scrape/platform-reviews",
      "/scrape/platform-reviews/batch",
      "/batches",
      "/batches/{batch_id}",
      "/dashboard/overview",
      "/dashboard/by-client",
      "/dashboard/problems",
      "/dashboard/by-version",
      "/admin/scrapers/{id}/promote",
      "/admin/scrapers/{id}/deprecate",
    ]) {
      expect(doc.paths[p], p).toBeDefined();
    }
    expect(doc.paths["/batches/{batch_id}"]).toHaveProperty("delete");
    // Every procedure of the scrape router is a documented REST operation, but for the pages' own
    // (named here, so a new one is a decision): the forms' place picker.
    const routed = Object.entries(
      // Flat at run time ("scrape.jobs", …), typed as the nested router.
      appRouter._def.procedures as unknown as Record<string, { _def: { meta?: { openapi?: unknown } } }>,
    );
    const procedures = routed.filter(([k, p]) => k.startsWith("scrape.") && p._def.meta?.openapi).map(([k]) => k);
    expect(routed.filter(([k, p]) => k.startsWith("scrape.") && !p._def.meta?.openapi).map(([k]) => k)).toEqual([
      "scrape.searchPlaces",
    ]);
    // (The streamed exports are route handlers, documented beside them.)
    const engine = Object.entries(doc.paths).filter(
      ([p]) =>
        /^\/(scrape|batches|jobs|places|schedules|alert-rules|reviews|dashboard|admin\/scrapers|admin\/api-keys)(\/|$)/.test(
          p,
        ) && !p.endsWith("/reviews/export"),
    );
    expect(engine.flatMap(([, item]) => Object.keys(item)).length).toBe(procedures.length);
    for (const p of [
      "/jobs/{job_id}/reviews/export",
      "/batches/{batch_id}/reviews/export",
      "/places/{place_id}/reviews/export",
    ])
      expect(doc.paths[p], p).toHaveProperty("get");
  });

  it("answers 401 for a missing, malformed, unknown or revoked key with the one error body", async () => {
    const k = await makeKey(db, ["jobs:read"]);
    expect((await rest(null, "GET", "/batches")).res.status).toBe(401);
    for (const bad of ["nope", `${k.key}x`, k.key.replace(/.$/, (c) => (c === "A" ? "B" : "A"))]) {
      const r = await rest(bad, "GET", "/batches");
      expect(r.res.status).toBe(401);
      expect(r.json).toEqual({ error: { code: "UNAUTHORIZED", message: "invalid_api_key" } });
    }
    expect((await rest(k.key, "GET", "/batches")).res.status).toBe(200);
    const row = await db.apiKey.findUniqueOrThrow({ where: { id: k.id } });
    expect(row.lastUsedAt).not.toBeNull();
    expect(row.keyHash).not.toContain(k.key);
    await db.apiKey.update({ where: { id: k.id }, data: { revokedAt: new Date() } });
    expect((await rest(k.key, "GET", "/batches")).res.status).toBe(401);
    // A signed-in user who is not an administrator cannot use the engine either.
    const user = { id: uid("u"), email: "u@example.test", name: null, isAdmin: false };
    expect((await rest(null, "GET", "/batches", undefined, {}, user)).res.status).toBe(403);
  });

  it("limits each key with a token bucket: RateLimit headers on every answer, 429 with Retry-After", async () => {
    const k = await makeKey(db, ["jobs:read"], { rate_limit_per_minute: 3 });
    const other = await makeKey(db, ["jobs:read"], { rate_limit_per_minute: 3 });
    const remaining: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const r = await rest(k.key, "GET", "/batches");
      expect(r.res.status).toBe(200);
      expect(r.res.headers.get("ratelimit-policy")).toBe('"per-key";q=3;w=60');
      remaining.push(r.res.headers.get("ratelimit") ?? "");
    }
    expect(remaining.map((h) => /r=(\d+)/.exec(h)?.[1])).toEqual(["2", "1", "0"]);
    const limited = await rest(k.key, "GET", "/batches");
    expect(limited.res.status).toBe(429);
    expect(limited.json).toMatchObject({ error: { code: "TOO_MANY_REQUESTS" } });
    expect(Number(limited.res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited.res.headers.get("ratelimit")).toMatch(/^"per-key";r=0;t=\d+$/);
    expect((await rest(other.key, "GET", "/batches")).res.status).toBe(200);
  });

  it("replays the first answer for the same Idempotency-Key and body, and 409s another body", async () => {
    const k = await makeKey(db, ["jobs:write", "jobs:read"]);
    const key = uid("idem");
    const first = await rest(k.key, "POST", "/scrape", job(), { "idempotency-key": key });
    expect(first.res.status).toBe(200);
    expect(first.res.headers.get("idempotent-replayed")).toBeNull();
    const again = await rest(k.key, "POST", "/scrape", job(), { "idempotency-key": key });
    expect(again.res.status).toBe(200);
    expect(again.res.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json).toEqual(first.json);
    expect(await db.job.count({ where: { apiKeyId: k.id } })).toBe(1);
    const other = await rest(k.key, "POST", "/scrape", job({ review_limit: 7 }), { "idempotency-key": key });
    expect(other.res.status).toBe(409);
    expect(other.json).toMatchObject({ error: { code: "CONFLICT", message: "idempotency_key_reused" } });
    // Batches too; concurrent retries create one batch.
    const bkey = uid("idem");
    const body = {
      requester_client_id: "acme",
      jobs: [
        { platform_id: "a", scraper_version: version },
        { platform_id: "b", scraper_version: version },
      ],
    };
    const [b1, b2] = await Promise.all([
      rest(k.key, "POST", "/scrape/platform-reviews/batch", body, { "idempotency-key": bkey }),
      rest(k.key, "POST", "/scrape/platform-reviews/batch", body, { "idempotency-key": bkey }),
    ]);
    expect(b1.json.id).toBe(b2.json.id);
    expect(await db.batch.count({ where: { apiKeyId: k.id } })).toBe(1);
  });

  it("validates input: 400 with field errors, 422 for unknown versions, private callbacks and off-platform targets, 404 for others' batches", async () => {
    const k = await makeKey(db, ["jobs:write", "jobs:read"]);
    const mine = await makeKey(db, ["jobs:read"]);
    expect((await rest(k.key, "POST", "/scrape", { requester_client_id: "x" })).res.status).toBe(400);
    expect((await rest(k.key, "POST", "/scrape", job({ place_url: "https://example.test/p" }))).res.status).toBe(400);
    const unknown = await rest(k.key, "POST", "/scrape", job({ scraper_version: "no-such-version" }));
    expect(unknown.res.status).toBe(422);
    expect(unknown.json).toMatchObject({ error: { message: "unknown_scraper_version" } });
    const created = await rest(
      k.key,
      "POST",
      "/scrape",
      job({ callback_url: "http://127.0.0.1:9/x", callback_secret: "whsec_short" }),
    );
    expect(created.res.status).toBe(400);
    // A target off the version's platform origin (no request is made: nothing listens on port 9).
    const offOrigin = await rest(
      k.key,
      "POST",
      "/scrape/platform-reviews",
      job({ platform_id: undefined, place_url: "http://127.0.0.1:9/places/p-1" }),
    );
    expect(offOrigin.res.status).toBe(422);
    expect(offOrigin.json).toMatchObject({
      error: { code: "UNPROCESSABLE", message: "target_not_allowed", details: { reason: "origin_mismatch" } },
    });
    const offBatch = await rest(k.key, "POST", "/scrape/platform-reviews/batch", {
      requester_client_id: "acme",
      jobs: [
        { platform_id: "a", scraper_version: version },
        { place_url: "http://127.0.0.1:9/places/p-1", scraper_version: version },
      ],
    });
    expect(offBatch.res.status).toBe(422);
    expect(offBatch.json).toMatchObject({
      error: {
        message: "target_not_allowed",
        details: { refused: 1, jobs: [{ index: 1, reason: "origin_mismatch" }] },
      },
    });
    const b = await rest(k.key, "POST", "/scrape/platform-reviews/batch", {
      requester_client_id: "acme",
      jobs: [{ platform_id: "a", scraper_version: version }],
    });
    expect((await rest(mine.key, "GET", `/batches/${String(b.json.id)}`)).res.status).toBe(404);
    expect((await rest(k.key, "GET", `/batches/${String(b.json.id)}`)).json).toMatchObject({
      total_jobs: 1,
      percent: 0,
      counts: { queued: 1 },
    });
  });
});

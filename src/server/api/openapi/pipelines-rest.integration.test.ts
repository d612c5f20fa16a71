import { afterAll, describe, expect, it } from "vitest";
import { syncRegistry } from "@/server/pipelines/registry";
import { REVIEW_ANALYTICS_DASHBOARD } from "@/server/pipelines/review-analytics/dashboard";
import { LEGACY_V1_EXAMPLE } from "@/server/pipelines/review-analytics/synthesis/legacy-v1";
import { runExecution } from "@/server/services/pipelines/run-execution";
import { makeUser } from "@/test/mesh-fixtures";
import { testDb, uid } from "@/test/helpers";
import { collectedJob, makeApiKey, queuedIds, reviewsOf, systemCtx } from "@/test/pipeline-fixtures";
import { createContext, type SessionUser } from "../trpc";
import { openApiDocument } from "./document";
import { handleRest } from "./rest-handler";

const db = testDb();
afterAll(async () => {
  await db.$disconnect();
});

async function rest(user: SessionUser | null, method: string, path: string, body?: unknown, key?: string) {
  const req = new Request(`http://test/api${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const res = await handleRest(req, () => createContext({ user, db, headers: req.headers }));
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, unknown> };
}

/** A new place with `count` reviews collected by a job of the key (null: an administrator's job). */
async function placeOf(apiKeyId: string | null, count: number, tag = "rest") {
  const place = uid(tag);
  await collectedJob(db, { apiKeyId, placeKey: place, reviews: reviewsOf(place, count, 21) });
  return place;
}

describe("pipeline REST paths (Document 1)", () => {
  it("needs a signed-in administrator or an API key", async () => {
    const res = await rest(null, "GET", "/pipelines");
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ error: { code: "UNAUTHORIZED" } });
    expect((await rest(null, "GET", "/pipelines", undefined, "rk_nope_nope")).status).toBe(401);
    const user = await rest(await makeUser(db), "GET", "/pipelines");
    expect(user.status).toBe(403);
    expect(user.json).toMatchObject({ error: { code: "FORBIDDEN", message: "admin_only" } });
  });

  it("takes API keys with the scopes of jobs: jobs:read reads, jobs:write executes, admin does both", async () => {
    const reader = await makeApiKey(db, ["jobs:read"]);
    const writer = await makeApiKey(db, ["jobs:write"]);
    const admin = await makeApiKey(db, ["admin"]);
    const place = await placeOf(writer.id, 20, "keys");

    const list = await rest(null, "GET", "/pipelines", undefined, reader.key);
    expect(list.status).toBe(200);
    expect(list.headers.get("ratelimit-policy")).toMatch(/q=\d+/);
    const refused = await rest(
      null,
      "POST",
      "/pipelines/review-analytics/execute",
      { input: { place_key: place } },
      reader.key,
    );
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ error: { code: "FORBIDDEN", message: "missing_scope" } });
    expect((await rest(null, "GET", "/pipelines/review-analytics/executions", undefined, writer.key)).status).toBe(403);

    const run = await rest(
      null,
      "POST",
      "/pipelines/review-analytics/execute",
      { input: { place_key: place } },
      writer.key,
    );
    expect(run.status).toBe(200);
    const id = run.json.id as string;
    const row = await db.pipelineExecution.findUniqueOrThrow({ where: { id } });
    expect(row.triggeredByApiKeyId).toBe(writer.id);
    await runExecution(systemCtx(db), { executionId: id });
    const detail = await rest(null, "GET", `/pipelines/review-analytics/executions/${id}`, undefined, admin.key);
    expect(detail.status).toBe(200);
    expect(detail.json).toMatchObject({
      id,
      status: "succeeded",
      review_count: 20,
      places: [{ place_key: place, reviews: 20 }],
    });
    expect(typeof detail.json.total_duration_ms).toBe("number");
  });

  it("cross-key pipeline paths answer 404, and the execution limit answers 429 with its limit", async () => {
    const a = await makeApiKey(db, ["jobs:read", "jobs:write"]);
    const b = await makeApiKey(db, ["jobs:read", "jobs:write"]);
    const placeA = await placeOf(a.id, 8, "cross");
    const job = await db.job.findFirstOrThrow({ where: { apiKeyId: a.id }, select: { id: true } });
    const refused = await rest(
      null,
      "POST",
      "/pipelines/review-analytics/execute",
      { input: { job_ids: [job.id] } },
      b.key,
    );
    expect(refused.status).toBe(404);
    expect(refused.json).toMatchObject({
      error: { code: "NOT_FOUND", message: "job_not_found", details: { job_ids: [job.id] } },
    });
    expect(
      (await rest(null, "POST", "/pipelines/review-analytics/execute", { input: { place_key: placeA } }, b.key)).json,
    ).toMatchObject({ error: { message: "place_not_found" } });

    const run = await rest(
      null,
      "POST",
      "/pipelines/review-analytics/execute",
      { input: { place_key: placeA } },
      a.key,
    );
    expect(run.status).toBe(200);
    const id = run.json.id as string;
    for (const path of [
      `/executions/${id}`,
      `/widgets/total_reviews?execution_id=${id}`,
      `/synthesis?execution_id=${id}`,
    ]) {
      const other = await rest(null, "GET", `/pipelines/review-analytics${path}`, undefined, b.key);
      expect(other.status, path).toBe(404);
      expect(other.json, path).toMatchObject({ error: { code: "NOT_FOUND", message: "execution_not_found" } });
    }
    expect((await rest(null, "GET", "/pipelines/review-analytics/executions", undefined, b.key)).json).toMatchObject({
      total: 0,
      items: [],
    });

    // PIPELINE_MAX_ACTIVE_PER_PRINCIPAL defaults to 2: A has one queued run, a second passes, a third is refused.
    expect(
      (await rest(null, "POST", "/pipelines/review-analytics/execute", { input: { place_key: placeA } }, a.key)).status,
    ).toBe(200);
    const third = await rest(
      null,
      "POST",
      "/pipelines/review-analytics/execute",
      { input: { place_key: placeA } },
      a.key,
    );
    expect(third.status).toBe(429);
    expect(third.json).toMatchObject({
      error: { code: "TOO_MANY_REQUESTS", message: "too_many_active_executions", details: { limit: 2 } },
    });
  });

  it("lists, executes, and serves history, execution detail, dashboard, widgets and synthesis", async () => {
    const user = await makeUser(db, { admin: true });
    const place = await placeOf(null, 60);

    const list = await rest(user, "GET", "/pipelines");
    expect(list.status).toBe(200);
    expect((list.json.items as { id: string }[]).map((p) => p.id)).toContain("review-analytics");
    const details = await rest(user, "GET", "/pipelines/review-analytics");
    expect(details.json).toMatchObject({
      id: "review-analytics",
      version: "1.0.0",
      stages: [{ id: "normalize" }, { id: "classify" }, { id: "route" }, { id: "aggregate" }, { id: "synthesize" }],
    });

    const bad = await rest(user, "POST", "/pipelines/review-analytics/execute", { input: { place_key: "" } });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({
      error: { code: "BAD_REQUEST", message: "invalid_run_request", details: { issues: [{ path: "place_key" }] } },
    });
    // Every refused run request carries its issues in the one shape, whatever is wrong with it.
    for (const body of [
      { input: "not an object" },
      {},
      { input: { place_key: "p", from: "2026-02-01", to: "2026-01-01" } },
      { input: { job_ids: [] } },
    ]) {
      const refused = await rest(user, "POST", "/pipelines/review-analytics/execute", body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      const issues = (refused.json as { error: { details?: { issues?: { path: unknown; message: unknown }[] } } }).error
        .details?.issues;
      expect(issues?.length, JSON.stringify(body)).toBeGreaterThan(0);
      for (const i of issues ?? []) expect([typeof i.path, typeof i.message]).toEqual(["string", "string"]);
    }
    expect((await rest(user, "POST", "/pipelines/nope/execute", { input: {} })).status).toBe(404);

    const run = await rest(user, "POST", "/pipelines/review-analytics/execute", { input: { place_key: place } });
    expect(run.status).toBe(200);
    expect(run.json).toMatchObject({ status: "queued", total_duration_ms: null });
    const id = run.json.id as string;
    expect(await queuedIds(db, { ids: [id] })).toContain(id);
    await runExecution(systemCtx(db), { executionId: id });

    const detail = await rest(user, "GET", `/pipelines/review-analytics/executions/${id}`);
    expect(detail.status).toBe(200);
    expect(typeof detail.json.stage_metrics).toBe("object");
    expect(typeof detail.json.total_duration_ms).toBe("number");
    expect((detail.json.stage_metrics as Record<string, { items_in: number }>).normalize?.items_in).toBe(60);
    expect(typeof detail.json.finished_at).toBe("string");

    const history = await rest(user, "GET", "/pipelines/review-analytics/executions?page=1&pageSize=5");
    expect(history.json).toMatchObject({ page: 1, pageSize: 5 });
    expect((history.json.items as unknown[]).length).toBeGreaterThan(0);

    const dashboard = await rest(user, "GET", "/pipelines/review-analytics/dashboard");
    expect((dashboard.json.widgets as { id: string }[]).map((w) => w.id)).toEqual(
      REVIEW_ANALYTICS_DASHBOARD.map((w) => w.id),
    );
    const widget = await rest(user, "GET", `/pipelines/review-analytics/widgets/weekday_hour?execution_id=${id}`);
    expect(widget.json).toMatchObject({
      kind: "Heatmap",
      execution_id: id,
      state: "ready",
      data: { kind: "Heatmap", y_labels: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] },
    });
    expect((await rest(user, "GET", "/pipelines/review-analytics/widgets/nope")).status).toBe(404);

    const synthesis = await rest(user, "GET", `/pipelines/review-analytics/synthesis?execution_id=${id}`);
    expect(synthesis.json).toMatchObject({
      state: "ready",
      format: "v2",
      review_count: 60,
      report: { report_version: "2.0" },
    });
    expect(Array.isArray((synthesis.json.report as { strengths_to_protect: unknown }).strengths_to_protect)).toBe(true);

    const rerun = await rest(user, "POST", `/pipelines/review-analytics/executions/${id}/rerun`);
    expect(rerun.status).toBe(409);
    expect((await rest(user, "GET", "/pipelines/review-analytics/executions/not-a-uuid")).status).toBe(400);
  });

  it("serves legacy v1 reports and JSON stored as text, parsed", async () => {
    const user = await makeUser(db, { admin: true });
    await syncRegistry(db);
    const legacy = await db.pipelineExecution.create({
      data: {
        pipelineId: "review-analytics",
        pipelineVersion: "0.9.0",
        status: "succeeded",
        input: JSON.stringify({ place_key: "old-place" }),
        stageMetrics: JSON.stringify({
          normalize: {
            status: "succeeded",
            duration_ms: 12,
            items_in: 3,
            items_out: 3,
            warnings: [],
            errors: [],
            started_at: null,
            finished_at: null,
          },
        }),
        synthesis: JSON.stringify(LEGACY_V1_EXAMPLE),
        totalDurationMs: 40,
        finishedAt: new Date(),
      },
    });
    const detail = await rest(user, "GET", `/pipelines/review-analytics/executions/${legacy.id}`);
    expect(detail.json).toMatchObject({
      input: { place_key: "old-place" },
      stage_metrics: { normalize: { items_in: 3 } },
      total_duration_ms: 40,
      synthesis_format: "v1",
    });
    // A run older than stored places names the place of its input.
    expect(detail.json).toMatchObject({
      review_count: null,
      places: [{ place_key: "old-place", origin: null, name: null, reviews: null }],
    });
    const synthesis = await rest(user, "GET", `/pipelines/review-analytics/synthesis?execution_id=${legacy.id}`);
    expect(synthesis.json).toMatchObject({ format: "v1", report: { summary: LEGACY_V1_EXAMPLE.summary } });
  });

  it("documents every pipeline path in /api/openapi.json", () => {
    const paths = Object.keys((openApiDocument("http://test/api") as { paths: Record<string, unknown> }).paths);
    for (const p of [
      "/pipelines",
      "/pipelines/{pipeline_id}",
      "/pipelines/{pipeline_id}/execute",
      "/pipelines/{pipeline_id}/dashboard",
      "/pipelines/{pipeline_id}/widgets/{widget_id}",
      "/pipelines/{pipeline_id}/executions",
      "/pipelines/{pipeline_id}/executions/{execution_id}",
      "/pipelines/{pipeline_id}/executions/{execution_id}/rerun",
      "/pipelines/{pipeline_id}/synthesis",
    ]) {
      expect(paths, p).toContain(p);
    }
  });
});

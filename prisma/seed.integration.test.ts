import { visitorCtx } from "@/test/mesh-fixtures";
import { afterAll, describe, expect, it } from "vitest";
import { authenticate } from "../src/server/services/users/authenticate";
import { testDb } from "../src/test/helpers";
import { detectReportFormat } from "../src/server/pipelines/review-analytics/synthesis/report";
import { DEMO_USERS, seed } from "./seed";
import { DEMO_CLIENT, DEMO_PLACE, DEMO_PLACE_NAME, seedPipelines } from "./seed-pipelines";

const db = testDb();
afterAll(() => db.$disconnect());

describe("seed", () => {
  it("adds the demo users once; a second run adds nothing", async () => {
    await seed(db);
    const before = await db.user.count();
    const second = await seed(db);
    expect(second.created).toBe(0);
    expect(await db.user.count()).toBe(before);
    for (const demo of DEMO_USERS) {
      await expect(authenticate(visitorCtx(db), { email: demo.email, password: demo.password })).resolves.toMatchObject(
        {
          email: demo.email,
        },
      );
    }
  });

  it("stays idempotent when two processes seed at once", async () => {
    await Promise.all([seed(db), seed(db), seed(db)]);
    for (const demo of DEMO_USERS) expect(await db.user.count({ where: { email: demo.email } })).toBe(1);
  });
});

describe("pipeline demo data", () => {
  it("holds generated reviews, a completed execution with a v2 report and a legacy v1 report, once", async () => {
    await seed(db);
    const again = await seedPipelines(db);
    expect(again).toEqual({ reviews: 0, executions: 0 });
    expect(await db.review.count({ where: { placeKey: DEMO_PLACE } })).toBe(1500);
    // Readable by administrators: every demo review is linked to the one demo job, which has no API key.
    const jobs = await db.job.findMany({
      where: { requesterClientId: DEMO_CLIENT },
      select: { id: true, apiKeyId: true, placeName: true, status: true },
    });
    expect(jobs).toEqual([{ id: expect.any(String), apiKeyId: null, placeName: DEMO_PLACE_NAME, status: "succeeded" }]);
    expect(await db.jobReview.count({ where: { jobId: jobs[0]!.id } })).toBe(1500);
    const admin = await db.user.findUniqueOrThrow({ where: { email: "admin@example.com" }, select: { id: true } });
    const runs = await db.pipelineExecution.findMany({
      where: {
        pipelineId: "review-analytics",
        status: "succeeded",
        input: { path: ["place_key"], equals: DEMO_PLACE },
      },
      select: { synthesis: true, triggeredByUserId: true, reviewCount: true, places: true, pipelineVersion: true },
    });
    expect(runs.map((r) => detectReportFormat(r.synthesis)).sort()).toEqual(["v1", "v2"]);
    expect(runs.every((r) => r.triggeredByUserId === admin.id)).toBe(true);
    const current = runs.find((r) => r.pipelineVersion !== "0.9.0");
    expect(current).toMatchObject({
      reviewCount: 1500,
      places: [{ place_key: DEMO_PLACE, origin: "https://demo.invalid", name: DEMO_PLACE_NAME, reviews: 1500 }],
    });
  });

  it("adds the demo executions once when three seeders race", async () => {
    await db.pipelineExecution.deleteMany({ where: { input: { path: ["place_key"], equals: DEMO_PLACE } } });
    const results = await Promise.all([seedPipelines(db), seedPipelines(db), seedPipelines(db)]);
    expect(results.reduce((s, r) => s + r.executions, 0)).toBe(2);
    expect(await db.pipelineExecution.count({ where: { input: { path: ["place_key"], equals: DEMO_PLACE } } })).toBe(2);
  });
});

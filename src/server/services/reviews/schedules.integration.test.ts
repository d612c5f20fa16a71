// Issue 15, points 5 and 6: monitoring schedules. A schedule run twice in new_only mode over a demo
// place that gains 5 reviews and edits 1 between the runs (counts exactly 5/1/rest, the history keeps
// the old text); the REST surface with its checks; two worker processes, one run per slot, one of
// them killed mid-way. Only 127.0.0.1 servers.
import { afterAll, describe, expect, it } from "vitest";
import type { ApiKeyActor } from "@/server/services/actor";
import { testDb, uid } from "@/test/helpers";
import { demoPlatformForFile } from "@/test/demo-platform-for-file";
import { restWithKey } from "@/test/rest";
import {
  makeContext,
  makeKey,
  makeVersion,
  spawnWorkerProcess,
  startJsonPlatform,
  startReceiver,
  testSettings,
  verifyStandardWebhook,
  waitFor,
} from "@/test/review-fixtures";
import { workerForFile } from "@/test/review-worker";
import { reviewPage } from "./review-out";
import { ZCreateScheduleInput } from "./schedules.schema";
import { createSchedule, getSchedule, reviewHistory, setScheduleStatus } from "./schedules";
import { serviceContext, withActor } from "@/server/services/context";

const db = testDb();
const deps = makeContext(db, testSettings());
workerForFile(deps);
const demo = demoPlatformForFile();

/** Makes the schedule's next slot due now (as time passing would). */
const dueNow = (id: string) => db.schedule.update({ where: { id }, data: { nextRunAt: new Date() } });

async function runsDone(id: string, actor: ApiKeyActor, n: number) {
  return waitFor(
    async () => {
      const s = await getSchedule(serviceContext(actor, { db }), { schedule_id: id });
      return s.runs.length === n && s.runs.every((r) => r.status === "completed") ? s : undefined;
    },
    60_000,
    `${n} finished runs`,
  );
}

describe("schedules", () => {
  it("runs new_only twice over a place that gained 5 reviews and edited 1: 5 new, 1 updated, the rest unchanged, the old text kept", async () => {
    const { id: apiKeyId } = await makeKey(db, ["jobs:read", "jobs:write"]);
    const actor: ApiKeyActor = { kind: "apiKey", apiKeyId, scopes: ["jobs:read", "jobs:write"] };
    const v = await makeVersion(db, "http-json", { platformUrl: demo.base });
    const receiver = await startReceiver([200]);
    const secret = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
    const input = ZCreateScheduleInput.parse({
      name: "watch p-0003",
      callback_url: receiver.url,
      callback_secret: secret,
      requester_client_id: "monitor",
      targets: [{ platform_id: "p-0003", review_limit: 5_000, scraper_version: v.version }],
      interval_seconds: 3_600,
      mode: "new_only",
      stop_after_known: 10,
    });
    const schedule = await createSchedule(withActor(deps, actor), input);
    expect(schedule.next_run_at.getTime()).toBeLessThanOrEqual(Date.now());
    const total = demo.platform.dataset.reviews("p-0003").length;

    // Run 1: nothing known yet, so the whole list is read and every review is new.
    let detail = await runsDone(schedule.id, actor, 1);
    expect(detail.runs[0]?.changes).toEqual({ new: total, updated: 0, unchanged: 0 });
    expect(detail.run_count).toBe(1);
    // Each run's batch calls back, signed with the schedule's own secret.
    const hook = await waitFor(
      async () => receiver.received.find((r) => r.body.includes("batch.completed")),
      30_000,
      "batch.completed",
    );
    expect(await verifyStandardWebhook(secret, hook)).toBe(true);
    expect(JSON.parse(hook.body).data.id).toBe(detail.runs[0]?.batch_id);
    // Its next slot is one interval after the first.
    expect(detail.next_run_at.getTime() - schedule.next_run_at.getTime()).toBe(3_600_000);

    const textBefore = new Map(demo.platform.dataset.reviews("p-0003").map((r) => [r.id, r.text]));
    const res = await fetch(`${demo.base}/admin/places/p-0003/activity`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ add: 5, edit: 1 }),
    });
    const activity = (await res.json()) as { added: string[]; edited: string[] };
    expect(activity.added).toHaveLength(5);
    const editedId = activity.edited[0] as string;

    // Run 2: the 5 new, the edited one, then 10 unchanged in a row: stop.
    await dueNow(schedule.id);
    detail = await runsDone(schedule.id, actor, 2);
    expect(detail.runs[0]?.changes).toEqual({ new: 5, updated: 1, unchanged: 10 });
    expect(detail.runs[0]?.review_count).toBe(16);
    const batch = await db.batch.findUniqueOrThrow({
      where: { id: detail.runs[0]?.batch_id },
      include: { jobs: true },
    });
    expect(batch.scheduleId).toBe(schedule.id);
    const job = batch.jobs[0]!;
    expect(job.mode).toBe("new_only");
    expect(job.stopReason).toBe("known_reached");
    expect([job.newReviews, job.updatedReviews, job.unchangedReviews]).toEqual([5, 1, 10]);

    // The edited review's history: the version of run 1 (old text), then the edited one.
    const items = (await reviewPage(serviceContext(actor, { db }), { job_id: job.id, limit: 100 })).items;
    const edited = items.find((r) => r.external_id === editedId)!;
    const history = await reviewHistory(serviceContext(actor, { db }), { review_id: edited.id });
    expect(history.versions).toHaveLength(2);
    expect(history.versions[0]?.text).toBe(textBefore.get(editedId));
    expect(history.versions[1]?.text).toBe(edited.text);
    expect(edited.text).toMatch(/\(Edit: .*\)$/);
    expect(history.versions[1]?.edited_at).not.toBeNull();
    // Another key sees neither the schedule nor the history.
    const { id: otherKey } = await makeKey(db, ["jobs:read"]);
    const other: ApiKeyActor = { kind: "apiKey", apiKeyId: otherKey, scopes: ["jobs:read"] };
    await expect(getSchedule(serviceContext(other, { db }), { schedule_id: schedule.id })).rejects.toThrow(
      "schedule_not_found",
    );
    await expect(reviewHistory(serviceContext(other, { db }), { review_id: edited.id })).rejects.toThrow(
      "review_not_found",
    );

    // Paused: a due slot does not run.
    await setScheduleStatus(withActor(deps, actor), { schedule_id: schedule.id, status: "paused" });
    await dueNow(schedule.id);
    await new Promise((r) => setTimeout(r, 500));
    expect((await getSchedule(serviceContext(actor, { db }), { schedule_id: schedule.id })).runs).toHaveLength(2);
    demo.platform.dataset.restore();
    await receiver.close();
  }, 120_000);

  it("is created, listed, paused, resumed and deleted over REST, inside the key's own schedules", async () => {
    const { key } = await makeKey(db, ["jobs:read", "jobs:write"]);
    const { key: otherKey } = await makeKey(db, ["jobs:read", "jobs:write"]);
    const { key: readOnly } = await makeKey(db, ["jobs:read"]);
    const v = await makeVersion(db, "http-json", { platformUrl: demo.base });
    const body = {
      requester_client_id: "rest",
      targets: [{ platform_id: "p-0001", scraper_version: v.version }],
      cron: "0 6 * * mon",
      // Far from now: no worker of this run's queues takes it.
      callback_url: "https://example.test/hook",
    };
    const created = await restWithKey(db, key, "POST", "/schedules", body);
    expect(created.status).toBe(200);
    const id = created.json.id as string;
    expect(created.json).toMatchObject({
      status: "active",
      mode: "new_only",
      stop_after_known: 20,
      cron: "0 6 * * mon",
      run_count: 0,
    });
    expect(new Date(created.json.next_run_at as string).getUTCDay()).toBe(1);
    expect(created.json).not.toHaveProperty("callback_secret");

    // Checks: both or neither of cron and interval, a bad cron, an interval below the minimum, a write without the scope.
    expect((await restWithKey(db, key, "POST", "/schedules", { ...body, interval_seconds: 3_600 })).status).toBe(400);
    const badCron = await restWithKey(db, key, "POST", "/schedules", { ...body, cron: "61 * * * *" });
    expect(badCron.status).toBe(400);
    // The one shape of a validation error: details.issues, each { path, message }.
    expect(badCron.json).toEqual({
      error: {
        code: "BAD_REQUEST",
        message: expect.any(String),
        details: { issues: [{ path: "cron", message: "not a cron expression: minute: 61 is outside 0-59" }] },
      },
    });
    const { cron: _c, ...noCron } = body;
    const short = await restWithKey(db, key, "POST", "/schedules", { ...noCron, interval_seconds: 5 });
    expect(short.status).toBe(422);
    expect(JSON.stringify(short.json)).toContain("interval_too_short");
    expect((await restWithKey(db, readOnly, "POST", "/schedules", body)).status).toBe(403);

    const list = await restWithKey(db, key, "GET", "/schedules?q=rest");
    expect((list.json.items as { id: string }[]).map((s) => s.id)).toEqual([id]);
    expect(((await restWithKey(db, otherKey, "GET", "/schedules")).json.items as unknown[]).length).toBe(0);
    expect((await restWithKey(db, otherKey, "GET", `/schedules/${id}`)).status).toBe(404);
    expect((await restWithKey(db, otherKey, "POST", `/schedules/${id}/pause`)).status).toBe(404);
    expect((await restWithKey(db, otherKey, "DELETE", `/schedules/${id}`)).status).toBe(404);

    expect((await restWithKey(db, key, "POST", `/schedules/${id}/pause`)).json.status).toBe("paused");
    const resumed = await restWithKey(db, key, "POST", `/schedules/${id}/resume`);
    expect(resumed.json.status).toBe("active");
    expect(new Date(resumed.json.next_run_at as string).getTime()).toBeGreaterThan(Date.now());
    const detail = await restWithKey(db, key, "GET", `/schedules/${id}`);
    expect(detail.json.runs).toEqual([]);
    expect((await restWithKey(db, key, "DELETE", `/schedules/${id}`)).json).toEqual({ id, deleted: true });
    expect((await restWithKey(db, key, "GET", `/schedules/${id}`)).status).toBe(404);
  });

  it("runs each slot once with two worker processes, one of them killed mid-way", async () => {
    const platform = await startJsonPlatform({ reviews: 3 });
    const settings = testSettings({ SCHEDULE_MIN_INTERVAL_SECONDS: "1" });
    const env = { WORKER_POLL_MS: "20", SCHEDULE_MIN_INTERVAL_SECONDS: "1" };
    const [a, b] = await Promise.all([spawnWorkerProcess(settings, env), spawnWorkerProcess(settings, env)]);
    try {
      const { id: apiKeyId } = await makeKey(db, ["jobs:read", "jobs:write"]);
      const actor: ApiKeyActor = { kind: "apiKey", apiKeyId, scopes: ["jobs:read", "jobs:write"] };
      const v = await makeVersion(db, "http-json", { platformUrl: platform.url });
      const start = new Date(Math.ceil(Date.now() / 1000) * 1000 + 1000);
      const schedule = await createSchedule(
        withActor(makeContext(db, settings), actor),
        ZCreateScheduleInput.parse({
          requester_client_id: "slots",
          targets: [{ platform_id: uid("p"), scraper_version: v.version }],
          interval_seconds: 1,
          start_at: start,
          mode: "full",
        }),
      );
      await new Promise((r) => setTimeout(r, 3_500));
      a.child.kill("SIGKILL");
      await a.exited;
      await new Promise((r) => setTimeout(r, 3_000));
      await setScheduleStatus(withActor(makeContext(db, settings), actor), {
        schedule_id: schedule.id,
        status: "paused",
      });
      const end = Date.now();
      await new Promise((r) => setTimeout(r, 300));

      const batches = await db.batch.findMany({ where: { scheduleId: schedule.id }, orderBy: { scheduleSlot: "asc" } });
      const slots = batches.map((x) => x.scheduleSlot!.getTime());
      // Every slot from the first to the pause ran, once: consecutive seconds, none twice, none skipped.
      expect(slots[0]).toBe(start.getTime());
      expect(new Set(slots).size).toBe(slots.length);
      expect(slots.every((t, i) => t === start.getTime() + i * 1000)).toBe(true);
      expect(slots.length).toBeGreaterThanOrEqual(Math.floor((end - start.getTime()) / 1000));
      expect((await db.schedule.findUniqueOrThrow({ where: { id: schedule.id } })).runCount).toBe(slots.length);
      // Neither worker failed a take (two workers on one slot would have collided on the batch's slot).
      expect(a.output() + b.output()).not.toMatch(/taking work failed|duplicate key|schedule slot made no batch/);
    } finally {
      b.child.kill("SIGTERM");
      await b.exited;
      await platform.close();
    }
  }, 60_000);
});

afterAll(() => demo.platform?.dataset.restore());

// Alerts into a mesh (issue 46, point 4): a rule fires on an analysis run, the worker's delivery sends it
// as the mesh's review bot to the group of the owner team, and a `mesh` command-line peer of that
// group reads it; a peer of another group gets nothing. Real broker, real CLI processes, real PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { meshForBroker, tablesContaining } from "../../../../broker/client/test-mesh";
import { MeshProcesses, until } from "../../../../broker/cli/test-cli";
import { as, startBroker, type TestBroker } from "../../../../broker/test-support";
import { smtpMailer } from "@/server/mail/transport";
import { testDb, uid } from "@/test/helpers";
import { collectedJob, ctxOf, systemCtx, TEST_ORIGIN } from "@/test/pipeline-fixtures";
import { testSettings } from "@/test/review-fixtures";
import { SYSTEM } from "../actor";
import { executePipeline } from "../pipelines/execute-pipeline";
import { runExecution } from "../pipelines/run-execution";
import { placeIdOf } from "../reviews/place-store";
import { serviceContext, settingsWith } from "../context";
import type { ReviewActor } from "../reviews/access";
import { createAlertRule } from "./alert-rules";
import { ZCreateAlertRuleInput } from "./alert-rules.schema";
import { attemptAlertDelivery, takeAlertDeliveries } from "./deliver-alerts";
import { reviewBotSender } from "./mesh-sender";

const db = testDb();
const settings = testSettings();
let broker: TestBroker;
const procs = new MeshProcesses();
beforeAll(async () => {
  broker = await startBroker(db, { JOIN_RATE_PER_MINUTE: "1000" });
});
afterAll(async () => {
  procs.cleanup();
  await broker.close();
  await db.$disconnect();
});

type Line = { type: string; text?: string; fromName?: string };
const messagesIn = (out: string): Line[] =>
  out
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line)
    .filter((l) => l.type === "message");

describe("alerts into a mesh", () => {
  it("reach the command-line peers of the issue's team group as the review bot, end-to-end encrypted, once", async () => {
    const { owner, mesh, invite } = await meshForBroker(db, broker.ws);
    const [kitchen, front] = [procs.home(), procs.home()];
    expect((await procs.done(kitchen, ["join", invite.joinUrl, "--name", "Chef", "--group", "kitchen"])).code).toBe(0);
    expect(
      (await procs.done(front, ["join", invite.joinUrl, "--name", "Host", "--group", "front_of_house"])).code,
    ).toBe(0);
    // The mesh's owner is the engine's administrator here.
    const admin: ReviewActor = { kind: "administrator", userId: owner.id };
    const placeKey = uid("osteria");
    const placeId = placeIdOf({ platform: "platform", origin: TEST_ORIGIN, placeKey });
    await db.place.create({
      data: { id: placeId, platform: "platform", origin: TEST_ORIGIN, placeKey, name: "Osteria Mesh" },
    });
    const create = (input: Record<string, unknown>) =>
      createAlertRule(ctxOf(db, admin, settings), ZCreateAlertRuleInput.parse({ place_id: placeId, ...input }));

    // No bot yet: the rule is refused; a mesh of someone else is not found.
    await expect(create({ kind: "health_safety", mesh_id: mesh.id })).rejects.toMatchObject({
      message: "mesh_has_no_review_bot",
    });
    const stranger = await meshForBroker(db, broker.ws);
    await expect(create({ kind: "health_safety", mesh_id: stranger.mesh.id })).rejects.toMatchObject({
      message: "mesh_not_found",
    });
    await as(db, owner).my.addReviewBot({ meshId: mesh.id });
    const rule = await create({ kind: "health_safety", mesh_id: mesh.id, locale: "en" });
    expect(rule).toMatchObject({ mesh_name: "Test mesh", mesh_group: null });

    const sick = `The chicken was raw and I got food poisoning ${uid("x")}`;
    await collectedJob(db, {
      apiKeyId: null,
      placeKey,
      reviews: [
        {
          externalId: uid("r"),
          author: "Lee",
          rating: 2,
          text: sick,
          language: "en",
          publishedAt: new Date(),
          ownerReply: null,
        },
      ],
    });
    const run = await executePipeline(
      ctxOf(db, admin, settings),
      { pipeline_id: "review-analytics", input: { place_key: placeKey } },
      { maxActivePerPrincipal: 100 },
    );
    expect(await runExecution(systemCtx(db, settings), { executionId: run.id })).toBe("succeeded");
    const [alert] = await db.alert.findMany({ where: { ruleId: rule.id }, include: { deliveries: true } });
    expect(alert?.deliveries.map((d) => [d.channel, d.target])).toContainEqual(["mesh", "kitchen"]);
    expect(alert?.deliveries.map((d) => d.target)).not.toContain("front_of_house");

    const watchKitchen = procs.run(kitchen, ["watch", "--json"]);
    const watchFront = procs.run(front, ["watch", "--json"]);
    await until(
      () => watchKitchen.stderr().includes("connected to mesh") && watchFront.stderr().includes("connected to mesh"),
      "the watchers to connect",
    );
    // The worker's delivery: its context on this file's broker, the bot's sender.
    const workerCtx = serviceContext(SYSTEM, {
      db,
      settings: settingsWith(systemCtx(db, settings).settings, { brokerUrl: broker.ws }),
    });
    const deps = {
      publicBaseUrl: "https://reviews.example.test",
      mailer: smtpMailer("smtp://127.0.0.1:1", "x@example.test"),
      sendToMesh: reviewBotSender(workerCtx),
    };
    const taken = await takeAlertDeliveries(workerCtx, { queue: settings.JOB_QUEUE, leaseMs: 30_000, limit: 10 });
    expect(taken.length).toBeGreaterThan(0);
    for (const d of taken) expect(await attemptAlertDelivery(workerCtx, d, deps)).toBe("delivered");

    await until(() => messagesIn(watchKitchen.stdout()).length > 0, "the alert at the kitchen");
    const [message] = messagesIn(watchKitchen.stdout());
    expect(message?.fromName).toBe("Review bot");
    expect(message?.text).toContain("⚠ Health-and-safety case in a new review of Osteria Mesh");
    expect(message?.text).toContain(sick);
    expect(message?.text).toContain(`https://reviews.example.test/en/pipelines/review-analytics/executions/${run.id}`);
    expect(messagesIn(watchFront.stdout())).toEqual([]);
    // The broker holds only ciphertext of it.
    expect(await tablesContaining(db, ["Health-and-safety case in a new review"])).toEqual([]);
    // Nothing is left to send: a second pass takes nothing.
    expect(await takeAlertDeliveries(workerCtx, { queue: settings.JOB_QUEUE, leaseMs: 30_000, limit: 10 })).toEqual([]);
  });
});

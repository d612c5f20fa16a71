// The review bot end to end (issue 46): a real broker, two `mesh` command-line peers as real processes,
// real PostgreSQL; the bot sends through sendAsReviewBot as the worker will.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRPCError } from "@trpc/server";
import { meshForBroker, tablesContaining } from "../../../../broker/client/test-mesh";
import { MeshProcesses, until } from "../../../../broker/cli/test-cli";
import { as, startBroker, type TestBroker } from "../../../../broker/test-support";
import { AppError } from "@/server/core/errors";
import { testDb, uid } from "@/test/helpers";
import { addMember, makeUser } from "@/test/mesh-fixtures";
import { SYSTEM } from "../actor";
import { serviceContext, settingsWith } from "../context";
import { listMyReviewBots } from "./list-my-review-bots";
import { sendAsReviewBot } from "./send-as-bot";

const db = testDb();
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

/** The worker's context: the system, the test's database, the broker of this file. */
const workerCtx = () =>
  serviceContext(SYSTEM, { db, settings: settingsWith(serviceContext(SYSTEM).settings, { brokerUrl: broker.ws }) });

type Line = { type: string; text?: string; fromName?: string; direct?: boolean; messageId?: string };
const linesOf = (out: string): Line[] =>
  out
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("review bot", () => {
  it("sends to @kitchen end-to-end encrypted, once per dedupeId, never to another group; gone once removed", async () => {
    const { owner, mesh, invite } = await meshForBroker(db, broker.ws);
    const [kitchen, front] = [procs.home(), procs.home()];
    expect((await procs.done(kitchen, ["join", invite.joinUrl, "--name", "Kit", "--group", "kitchen"])).code).toBe(0);
    expect((await procs.done(front, ["join", invite.joinUrl, "--name", "Fo", "--group", "front_of_house"])).code).toBe(
      0,
    );
    const added = await as(db, owner).my.addReviewBot({ meshId: mesh.id });
    expect(added.displayName).toBe("Review bot");
    // A real member: the peers see it.
    const peers = await procs.done(kitchen, ["peers"]);
    expect(peers.out).toContain("Review bot");
    expect(await as(db, owner).my.reviewBot({ meshId: mesh.id })).toMatchObject({
      canManage: true,
      bot: { botId: added.botId, displayName: "Review bot" },
    });
    // The alert-rule form's list: the mesh with the groups its members use.
    expect(
      (
        await listMyReviewBots(serviceContext({ kind: "user", userId: owner.id, isAdmin: false }, { db }), {
          userId: owner.id,
        })
      ).filter((b) => b.meshId === mesh.id),
    ).toEqual([{ botId: added.botId, meshId: mesh.id, meshName: "Test mesh", groups: ["front_of_house", "kitchen"] }]);

    const watchKitchen = procs.run(kitchen, ["watch", "--json"]);
    const watchFront = procs.run(front, ["watch", "--json"]);
    await until(
      () => watchKitchen.stderr().includes("connected to mesh") && watchFront.stderr().includes("connected to mesh"),
      "the watchers to connect",
    );

    const text = `1-star review at Trattoria: cold food ${uid("alert")}`;
    const sent = await sendAsReviewBot(workerCtx(), {
      botId: added.botId,
      group: "kitchen",
      text,
      dedupeId: "rule-1:r-1",
    });
    expect(sent).toEqual({ messageId: expect.stringMatching(/^[0-9a-f-]{36}$/), recipients: 1 });
    // A retry of the same delivery (its answer lost, say): the broker answers with the first message.
    const again = await sendAsReviewBot(workerCtx(), {
      botId: added.botId,
      group: "kitchen",
      text,
      dedupeId: "rule-1:r-1",
    });
    expect(again.messageId).toBe(sent.messageId);
    // Then another alert: once it is shown, everything sent before it has been.
    const marker = `next alert ${uid("m")}`;
    await sendAsReviewBot(workerCtx(), { botId: added.botId, group: "kitchen", text: marker, dedupeId: "rule-1:r-2" });
    const messages = () => linesOf(watchKitchen.stdout()).filter((l) => l.type === "message");
    await until(() => messages().some((m) => m.text === marker), "the second alert at the kitchen");
    const shown = messages().filter((m) => m.text === text);
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({ fromName: "Review bot", direct: true, messageId: sent.messageId });
    // Front of house got nothing: every message the bot stored was for the kitchen's member alone.
    expect(linesOf(watchFront.stdout()).filter((l) => l.type === "message")).toEqual([]);
    const kitchenMember = await db.member.findFirstOrThrow({
      where: { meshId: mesh.id, displayName: "Kit" },
      select: { id: true },
    });
    const envelopes = await db.messageEnvelope.findMany({
      where: { senderMemberId: added.memberId },
      select: { targetSpec: true },
    });
    expect(envelopes.map((e) => e.targetSpec)).toEqual([
      { kind: "peer", memberId: kitchenMember.id },
      { kind: "peer", memberId: kitchenMember.id },
    ]);
    // Nothing the broker or the web app stored holds the text.
    expect(await tablesContaining(db, [text, marker])).toEqual([]);

    // A group nobody is in: nothing is sent.
    expect(
      await sendAsReviewBot(workerCtx(), { botId: added.botId, group: "bar", text: "x", dedupeId: "rule-1:r-3" }),
    ).toEqual({ messageId: null, recipients: 0 });

    // Removed by the owner: the bot is gone for good (not retryable).
    expect(await as(db, owner).my.removeReviewBot({ meshId: mesh.id })).toMatchObject({ removed: true });
    const gone = await rejection(
      sendAsReviewBot(workerCtx(), { botId: added.botId, group: "kitchen", text: "late", dedupeId: "rule-1:r-4" }),
    );
    expect(gone).toBeInstanceOf(AppError);
    expect(gone).toMatchObject({ code: "bot_gone", retryable: false });
    expect((await procs.done(kitchen, ["peers"])).out).not.toContain("Review bot");
    expect(await as(db, owner).my.reviewBot({ meshId: mesh.id })).toMatchObject({ bot: null });
  });

  it("ends with its member: removal from the members list, archiving or deleting the mesh makes it gone", async () => {
    const { owner, mesh } = await meshForBroker(db, broker.ws);
    const first = await as(db, owner).my.addReviewBot({ meshId: mesh.id });
    await as(db, owner).my.removeMember({ meshId: mesh.id, memberId: first.memberId, ban: true });
    expect(
      await rejection(sendAsReviewBot(workerCtx(), { botId: first.botId, group: "kitchen", text: "x", dedupeId: "d" })),
    ).toMatchObject({ code: "bot_gone" });
    // A new bot may be added in its place (new keys: the old one's is banned); then the mesh is archived.
    const second = await as(db, owner).my.addReviewBot({ meshId: mesh.id });
    expect(second.peerPubkey).not.toBe(first.peerPubkey);
    expect(await db.reviewBot.count({ where: { id: first.botId } })).toBe(0);
    await as(db, owner).my.archiveMesh({ meshId: mesh.id });
    expect(
      await rejection(
        sendAsReviewBot(workerCtx(), { botId: second.botId, group: "kitchen", text: "x", dedupeId: "d" }),
      ),
    ).toMatchObject({ code: "bot_gone" });
    // A deleted mesh (its owner's account deleted) takes its bots' rows and sealed keys along.
    await db.mesh.delete({ where: { id: mesh.id } });
    expect(await db.reviewBot.count({ where: { meshId: mesh.id } })).toBe(0);
  });

  it("is the owner's or a mesh admin's to add and remove: a stranger gets NOT_FOUND, a member FORBIDDEN", async () => {
    const { owner, mesh } = await meshForBroker(db, broker.ws);
    const [stranger, member, admin] = [await makeUser(db), await makeUser(db), await makeUser(db)];
    await addMember(db, mesh.id, member);
    await addMember(db, mesh.id, admin, { role: "admin" });
    const codeOf = async (p: Promise<unknown>) => ((await rejection(p)) as TRPCError).code;
    expect(await codeOf(as(db, stranger).my.addReviewBot({ meshId: mesh.id }))).toBe("NOT_FOUND");
    expect(await codeOf(as(db, stranger).my.reviewBot({ meshId: mesh.id }))).toBe("NOT_FOUND");
    expect(await codeOf(as(db, member).my.addReviewBot({ meshId: mesh.id }))).toBe("FORBIDDEN");
    const added = await as(db, admin).my.addReviewBot({ meshId: mesh.id });
    expect(await codeOf(as(db, owner).my.addReviewBot({ meshId: mesh.id }))).toBe("CONFLICT");
    expect(await codeOf(as(db, stranger).my.removeReviewBot({ meshId: mesh.id }))).toBe("NOT_FOUND");
    expect(await codeOf(as(db, member).my.removeReviewBot({ meshId: mesh.id }))).toBe("FORBIDDEN");
    expect(await as(db, member).my.reviewBot({ meshId: mesh.id })).toMatchObject({
      canManage: false,
      bot: { botId: added.botId },
    });
    // The stranger's list does not hold it; the admin's does.
    const listOf = (userId: string) =>
      listMyReviewBots(serviceContext({ kind: "user", userId, isAdmin: false }, { db }), { userId });
    expect((await listOf(stranger.id)).map((b) => b.botId)).not.toContain(added.botId);
    expect((await listOf(admin.id)).map((b) => b.botId)).toContain(added.botId);
    // Nobody lists another person's bots.
    expect(
      await rejection(
        listMyReviewBots(serviceContext({ kind: "user", userId: stranger.id, isAdmin: false }, { db }), {
          userId: owner.id,
        }),
      ),
    ).toMatchObject({ code: "FORBIDDEN" });
    expect(await as(db, owner).my.removeReviewBot({ meshId: mesh.id })).toMatchObject({ removed: true });
  });
});

import { statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { revokeInvite } from "@/server/services/invites/revoke-invite";
import { freePort, testDb } from "@/test/helpers";
import { actorOf } from "@/test/mesh-fixtures";
import {
  joinWithLink,
  JoinRefusedError,
  MeshClient,
  MeshClientError,
  setStatusViaHook,
  type ReceivedMessage,
} from "./index";
import { clientHarness, meshForBroker, pausableProxy, tablesContaining } from "./test-mesh";

const db = testDb();
const harness = clientHarness(db);
const store = () => harness.store();
const client = harness.client;
/** Resolves with the first `count` events of a kind. */
function collect<T>(c: MeshClient, event: "message" | "status", count: number): Promise<T[]> {
  const got: T[] = [];
  return new Promise((resolve) =>
    c.on(event, (e: unknown) => {
      got.push(e as T);
      if (got.length === count) resolve(got);
    }),
  );
}

describe("joining from a link", () => {
  it("joins with the https link, stores keys 0600, and rejoins with the same keys from the ic:// link", async () => {
    const { mesh, invite } = await meshForBroker(db, harness.broker.ws, { maxUses: 1 });
    expect(invite.joinUrl).toMatch(/^https:\/\/.+\/join\//);
    const s = store();
    const joined = await joinWithLink(invite.joinUrl, { displayName: "Laptop", store: s });
    expect(joined).toMatchObject({
      rejoined: false,
      config: {
        meshId: mesh.id,
        meshSlug: mesh.slug,
        role: "member",
        displayName: "Laptop",
        brokerUrl: harness.broker.ws,
      },
    });
    expect(statSync(joined.file).mode & 0o777).toBe(0o600);
    expect(statSync(s.home).mode & 0o777).toBe(0o700);
    const member = await db.member.findUniqueOrThrow({ where: { id: joined.config.memberId } });
    const keys = new MeshClient(joined.config).keys;
    expect(member).toMatchObject({
      meshId: mesh.id,
      peerPubkey: keys.signPublicKey,
      boxPubkey: keys.boxPublicKey,
      displayName: "Laptop",
    });

    // The invite's one use is spent; the same keys rejoin without using it.
    const again = await joinWithLink(invite.inviteLink, { displayName: "Other", store: s });
    expect(again).toMatchObject({
      rejoined: true,
      config: { memberId: joined.config.memberId, displayName: "Laptop", signSeed: joined.config.signSeed },
    });
    await expect(joinWithLink(invite.inviteLink, { store: store() })).rejects.toMatchObject({
      code: "invite_exhausted",
      status: 410,
    });
  });

  it("reports the broker's refusal reason and writes nothing", async () => {
    const { owner, invite, deps } = await meshForBroker(db, harness.broker.ws);
    await revokeInvite({ ...deps, actor: actorOf(owner) }, { inviteId: invite.inviteId });
    const s = store();
    const refused = await joinWithLink(invite.joinUrl, { store: s }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(JoinRefusedError);
    expect(refused).toMatchObject({ code: "invite_revoked", status: 410, message: "the invite was revoked" });
    expect(s.list().meshes).toEqual([]);
  });

  it("says plainly when the broker cannot be reached", async () => {
    const port = await freePort();
    const { invite } = await meshForBroker(db, `ws://127.0.0.1:${port}`);
    await expect(joinWithLink(invite.inviteLink, { store: store() })).rejects.toMatchObject({
      code: "UNREACHABLE",
      message: `cannot reach the broker at http://127.0.0.1:${port}/join: ECONNREFUSED`,
    });
  });
});

async function twoPeers(names = ["Ana", "Bo"]) {
  const { invite } = await meshForBroker(db, harness.broker.ws);
  const configs = [];
  for (const name of names)
    configs.push((await joinWithLink(invite.joinUrl, { displayName: name, store: store() })).config);
  return configs;
}

describe("connected peers", () => {
  it("exchange whole-mesh and direct messages, decrypted only by the recipients", async () => {
    const [ana, bo, cy] = await twoPeers(["Ana", "Bo", "Cy"]);
    const [a, b, c] = [client(ana!), client(bo!), client(cy!)];
    await Promise.all([a.connect(), b.connect(), c.connect()]);
    const atB = collect<ReceivedMessage>(b, "message", 2);
    const atC = collect<ReceivedMessage>(c, "message", 1);
    const all = await a.send("hello everyone");
    expect(all.recipients).toBe(2);
    const direct = await a.send("only for Bo", { to: [bo!.memberId], priority: "high" });
    expect(direct.recipients).toBe(1);
    const [first, second] = await atB;
    expect(first).toMatchObject({
      messageId: all.messageId,
      from: ana!.memberId,
      text: "hello everyone",
      direct: false,
      to: { kind: "mesh" },
    });
    expect(second).toMatchObject({
      messageId: direct.messageId,
      text: "only for Bo",
      direct: true,
      priority: "high",
      fromName: "Ana",
    });
    expect((await atC).map((m) => m.text)).toEqual(["hello everyone"]);
    const peers = await c.peers();
    expect(peers.map((p) => p.displayName).sort()).toEqual(["Ana", "Bo", "Cy"]);
    await expect(a.send("to me", { to: [ana!.memberId] })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    // Above the broker's frame cap: refused here, and the connection stays up.
    await expect(a.send("x".repeat(70_000))).rejects.toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    expect(a.connected).toBe(true);

    // Ciphertext only: neither text is anywhere in the database, as text or as bytes.
    const needles = ["hello everyone", "only for Bo"].flatMap((t) => [t, Buffer.from(t).toString("hex")]);
    expect(await tablesContaining(db, needles)).toEqual([]);
  });

  it("drops a message delivered again because its ack came late, and acks it", async () => {
    const [ana, bo] = await twoPeers();
    const a = client(ana!);
    const b = client(bo!, { ackDelayMs: 1500 });
    await Promise.all([a.connect(), b.connect()]);
    const received: ReceivedMessage[] = [];
    b.on("message", (m) => received.push(m));
    const duplicate = new Promise<{ attempt: number }>((resolve) => b.once("duplicate", resolve));
    const sent = await a.send("say it once");
    expect((await duplicate).attempt).toBeGreaterThan(1);
    expect(received.map((m) => m.messageId)).toEqual([sent.messageId]);
    await expect
      .poll(() => db.messageRecipient.count({ where: { envelopeId: sent.messageId } }), { timeout: 5_000 })
      .toBe(0);
  });

  it("sends again after a reconnect when the first `send` got no `sent`", async () => {
    const [ana, bo] = await twoPeers();
    const proxy = await pausableProxy(harness.broker.port);
    try {
      const a = client(
        { ...ana!, brokerUrl: `ws://127.0.0.1:${proxy.port}` },
        { backoff: { initialMs: 50, maxMs: 200 } },
      );
      const b = client(bo!);
      await Promise.all([a.connect(), b.connect()]);
      const atB = collect<ReceivedMessage>(b, "message", 1);
      proxy.hold();
      const sending = a.send("lost on the way, sent again");
      await new Promise((r) => setTimeout(r, 100));
      const reconnected = new Promise((resolve) => a.once("connected", resolve));
      proxy.release();
      proxy.cut();
      await reconnected;
      const receipt = await sending;
      expect((await atB)[0]).toMatchObject({ messageId: receipt.messageId, text: "lost on the way, sent again" });
      expect(await db.messageEnvelope.count({ where: { meshId: ana!.meshId } })).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  it("receives what was queued while offline, in order, on connect; a send-only session takes none", async () => {
    const [ana, bo] = await twoPeers();
    const a = client(ana!);
    await a.connect();
    for (const text of ["one", "two", "three"]) await a.send(text);
    // A session that only sends (the command line's `mesh send`) leaves them queued.
    const sender = client(bo!, { receive: false });
    expect((await sender.connect()).queued).toBe(3);
    await sender.send("from Bo");
    await sender.close();
    const b = client(bo!);
    const got = collect<ReceivedMessage>(b, "message", 3);
    const welcome = await b.connect();
    expect(welcome.queued).toBe(3);
    expect((await got).map((m) => m.text)).toEqual(["one", "two", "three"]);
  });

  it("sets status over the socket and through the signed hook; peers see both", async () => {
    const [ana, bo] = await twoPeers();
    const b = client(bo!);
    await b.connect();
    const seen = collect<{ memberId: string; status: string; text: string | null }>(b, "status", 2);
    // Ana has no connection yet: the hook's status is kept.
    const hooked = await setStatusViaHook(ana!, {
      status: "working",
      text: "running tests",
      pid: process.pid,
      cwd: process.cwd(),
    });
    expect(hooked).toMatchObject({
      memberId: ana!.memberId,
      status: "working",
      text: "running tests",
      connected: false,
    });
    const a = client(ana!);
    await a.connect();
    expect(await a.setStatus("away", null)).toMatchObject({ memberId: ana!.memberId, status: "away", text: null });
    expect((await seen).map((s) => [s.memberId, s.status, s.text])).toEqual([
      [ana!.memberId, "working", "running tests"],
      [ana!.memberId, "away", null],
    ]);
    const bad = await setStatusViaHook({ ...ana!, signSeed: bo!.signSeed }, { status: "x", pid: 1, cwd: "/" }).catch(
      (e: unknown) => e,
    );
    expect(bad).toMatchObject({ code: "UNAUTHORIZED", status: 401 });
  });

  it("stops with a fatal error when the broker refuses its key", async () => {
    const [ana] = await twoPeers(["Ana"]);
    await db.member.update({ where: { id: ana!.memberId }, data: { revokedAt: new Date() } });
    const error = await client(ana!)
      .connect()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MeshClientError);
    expect(error).toMatchObject({ code: "UNAUTHORIZED" });
  });
});

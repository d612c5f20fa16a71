// Issue 45: people in the browser. A browser device is registered by a signed-in person with a proof of its
// key (docs/mesh-api.md, "Browser devices"), connects with its proof offered as a WebSocket subprotocol
// (docs/protocol.md, "Connecting from a browser"), reads and is read by the command-line client, and
// ends with the person. The attacks first: another person's key, another person's mesh, no bound, replays.
import nacl from "tweetnacl";
import WebSocket from "ws";
import { describe, expect, it } from "vitest";
import { signDeviceProof } from "@/server/core/crypto/device-proof";
import { toBase64Url } from "@/server/core/encoding";
import { decodeInviteToken } from "@/server/core/invites/invite-codec";
import { removeMember } from "@/server/services/meshes/members";
import { testDb } from "@/test/helpers";
import { actorOf, makeUser } from "@/test/mesh-fixtures";
import { trpcOutcome } from "@/test/rejection";
import type { SessionUser } from "@/server/api/trpc";
import { ChatClient, connectionProof, type ChatEnd, type ChatMessage } from "@/chat/chat-client";
import { joinWithLink, type ReceivedMessage } from "./client/index";
import { clientHarness, meshForBroker, tablesContaining } from "./client/test-mesh";
import { authSubprotocols, WS_SUBPROTOCOL } from "./protocol/ws-subprotocol";
import { as, eventually } from "./test-support";

const db = testDb();
const harness = clientHarness(db);

/** Keys made as the chat page makes them, and the registration call with their proof. */
async function register(user: SessionUser, meshId: string, opts: { prover?: Uint8Array; proofUser?: string } = {}) {
  const sign = nacl.sign.keyPair();
  const box = nacl.box.keyPair();
  const peerPubkey = toBase64Url(sign.publicKey);
  const boxPubkey = toBase64Url(box.publicKey);
  const proof = signDeviceProof({
    userId: opts.proofUser ?? user.id,
    meshId,
    peerPubkey,
    boxPubkey,
    secretKey: opts.prover ?? sign.secretKey,
  });
  const call = as(db, user).my.registerBrowserDevice({ meshId, peerPubkey, boxPubkey, proof });
  return { call, sign, box, peerPubkey, boxPubkey, proof };
}

async function device(user: SessionUser, meshId: string) {
  const r = await register(user, meshId);
  const made = await r.call;
  return { made, secrets: { memberId: made.memberId, signSecretKey: r.sign.secretKey, boxSecretKey: r.box.secretKey } };
}

/** Opens /ws with the proof as subprotocols (what a browser can do); the selected protocol or the refusal. */
function openWithProtocols(url: string, protocols: string[]) {
  return new Promise<{ ok: true; ws: WebSocket } | { ok: false; status: number }>((resolve) => {
    const ws = new WebSocket(url, protocols);
    ws.on("message", (data) => {
      if ((JSON.parse(String(data)) as { type: string }).type === "welcome") resolve({ ok: true, ws });
    });
    ws.on("unexpected-response", (_req, res) => resolve({ ok: false, status: res.statusCode ?? 0 }));
    ws.on("error", () => {});
  });
}

describe("browser devices", () => {
  it("are registered only with a proof by their key, for the person's own mesh, within the bound", async () => {
    const { owner, mesh, invite } = await meshForBroker(db, harness.broker.ws);
    const [ana, stranger] = [await makeUser(db), await makeUser(db)];
    await as(db, ana).my.joinMesh({ token: invite.token });

    // A proof by another key, or made for another person, is refused; nothing is stored.
    const forged = await register(ana, mesh.id, { prover: nacl.sign.keyPair().secretKey });
    expect(await trpcOutcome(forged.call)).toBe("UNAUTHORIZED:key_proof_invalid");
    const otherPerson = await register(ana, mesh.id, { proofUser: owner.id });
    expect(await trpcOutcome(otherPerson.call)).toBe("UNAUTHORIZED:key_proof_invalid");
    // A mesh the person does not belong to looks like none at all.
    expect(await trpcOutcome((await register(stranger, mesh.id)).call)).toBe("NOT_FOUND:mesh_not_found");
    expect(await db.member.count({ where: { meshId: mesh.id, browserDevice: true } })).toBe(0);

    const first = await register(ana, mesh.id);
    const made = await first.call;
    const row = await db.member.findUniqueOrThrow({ where: { id: made.memberId } });
    const membership = await db.member.findFirstOrThrow({
      where: { meshId: mesh.id, userId: ana.id, peerPubkey: null },
    });
    expect(row).toMatchObject({ userId: ana.id, browserDevice: true, parentMemberId: membership.id, role: "member" });
    expect(row.peerPubkey).toBe(first.peerPubkey);
    // The same keys again (a reload before the answer came) are the same device; another member's key is not.
    const again = await as(db, ana).my.registerBrowserDevice({
      meshId: mesh.id,
      peerPubkey: first.peerPubkey,
      boxPubkey: first.boxPubkey,
      proof: first.proof,
    });
    expect(again).toMatchObject({ memberId: made.memberId, rejoined: true });
    const ownerDevice = await device(owner, mesh.id);
    expect(ownerDevice.made.role).toBe("admin");

    // Bounded per person and mesh.
    for (let i = 1; i < 5; i++) await (await register(ana, mesh.id)).call;
    expect(await trpcOutcome((await register(ana, mesh.id)).call)).toBe("CONFLICT:browser_device_limit");
    expect(await db.member.count({ where: { meshId: mesh.id, userId: ana.id, browserDevice: true } })).toBe(5);
  });

  it("connect with the proof offered as a subprotocol: mesh.v1 is selected, a replayed or wrong proof gets 401", async () => {
    const { owner, mesh } = await meshForBroker(db, harness.broker.ws);
    const { secrets } = await device(owner, mesh.id);
    const url = `${harness.broker.ws}/ws?mesh=${mesh.id}&member=${secrets.memberId}`;
    const proof = connectionProof(mesh.id, secrets.memberId, secrets.signSecretKey);

    const opened = await openWithProtocols(url, authSubprotocols(proof));
    if (!opened.ok) throw new Error(`refused ${opened.status}`);
    expect(opened.ws.protocol).toBe(WS_SUBPROTOCOL);
    opened.ws.close();

    expect(await openWithProtocols(url, authSubprotocols(proof))).toEqual({ ok: false, status: 401 });
    const wrong = connectionProof(mesh.id, secrets.memberId, nacl.sign.keyPair().secretKey);
    expect(await openWithProtocols(url, authSubprotocols(wrong))).toEqual({ ok: false, status: 401 });
    // The proof alone, without mesh.v1 for the broker to select, is not taken.
    const fresh = connectionProof(mesh.id, secrets.memberId, secrets.signSecretKey);
    expect(await openWithProtocols(url, [`mesh-auth.${fresh}`])).toEqual({ ok: false, status: 401 });
    // Another member's proof for this member id.
    const other = await device(owner, mesh.id);
    const stolen = connectionProof(mesh.id, secrets.memberId, other.secrets.signSecretKey);
    expect(await openWithProtocols(url, authSubprotocols(stolen))).toEqual({ ok: false, status: 401 });
  });

  it("the browser client and the command-line client read each other, whole mesh and direct; no table holds a plaintext; removal ends the chat", async () => {
    const { owner, mesh, invite, deps } = await meshForBroker(db, harness.broker.ws);
    const ana = await makeUser(db);
    await as(db, ana).my.joinMesh({ token: invite.token });
    const context = await as(db, ana).my.chatContext({ meshId: mesh.id });
    const decoded = decodeInviteToken(invite.token);
    expect(decoded.ok && context.rootKey === decoded.payload.mesh_root_key).toBe(true);
    const { secrets } = await device(ana, mesh.id);

    const store = harness.store();
    const { config } = await joinWithLink(invite.inviteLink, { displayName: "cli-bot", store });
    const cli = harness.client(config, { epochKeyStore: store.epochKeyStore(config.meshId) });
    const cliInbox: ReceivedMessage[] = [];
    cli.on("message", (m) => cliInbox.push(m));
    await cli.connect();

    const seen: ChatMessage[] = [];
    const ends: ChatEnd[] = [];
    const chat = new ChatClient({
      brokerUrl: harness.broker.ws,
      meshId: mesh.id,
      rootKey: context.rootKey,
      device: secrets,
      onMessage: (m) => seen.push(m),
      onEnd: (e) => ends.push(e),
      WebSocket: globalThis.WebSocket,
    });
    const opened = new Promise<void>((resolve) => {
      const poll = setInterval(() => chat.currentPeers.length > 0 && (clearInterval(poll), resolve()), 20);
    });
    chat.start();
    await opened;

    const texts = [`hello from the browser ${Date.now()}`, `psst, only you ${Date.now()}`];
    const replies = [`hello from the terminal ${Date.now()}`, `direct to the browser ${Date.now()}`];
    await chat.sendText(texts[0] ?? "");
    await chat.sendText(texts[1] ?? "", [config.memberId]);
    await eventually(async () => cliInbox.length === 2, 10_000);
    expect(cliInbox.map((m) => m.text).sort()).toEqual([...texts].sort());
    await cli.send(replies[0] ?? "");
    await cli.send(replies[1] ?? "", { to: [secrets.memberId] });
    await eventually(async () => seen.length === 2, 10_000);
    expect(seen.map((m) => [m.text, m.direct])).toEqual([
      [replies[0], false],
      [replies[1], true],
    ]);

    const needles = [...texts, ...replies];
    expect(await tablesContaining(db, [...needles, ...needles.map((t) => Buffer.from(t).toString("hex"))])).toEqual([]);

    // The person's browser membership removed: their device's chat closes at once and says why.
    const membership = await db.member.findFirstOrThrow({
      where: { meshId: mesh.id, userId: ana.id, peerPubkey: null },
    });
    await removeMember({ ...deps, actor: actorOf(owner) }, { meshId: mesh.id, memberId: membership.id });
    await eventually(async () => ends.length === 1, 5_000);
    expect(ends[0]).toEqual({ code: 4403, reason: "removed" });
    expect((await db.member.findUniqueOrThrow({ where: { id: secrets.memberId } })).revokedAt).not.toBeNull();
    chat.stop();
  });
});

describe("browser devices end with their person", () => {
  it("a ban of the person (through any of their members) and a departure end the browser devices; none is registered after", async () => {
    const { owner, mesh, invite, deps } = await meshForBroker(db, harness.broker.ws);
    const [ana, bo] = [await makeUser(db), await makeUser(db)];
    for (const u of [ana, bo]) await as(db, u).my.joinMesh({ token: invite.token });
    const anas = await device(ana, mesh.id);
    const bos = await device(bo, mesh.id);

    // Banned through the device itself: the person is banned, their key-less member and device end.
    await removeMember(
      { ...deps, actor: actorOf(owner) },
      { meshId: mesh.id, memberId: anas.made.memberId, ban: true },
    );
    const anaLive = await db.member.count({ where: { meshId: mesh.id, userId: ana.id, revokedAt: null } });
    expect(anaLive).toBe(0);
    expect(await trpcOutcome((await register(ana, mesh.id)).call)).toBe("NOT_FOUND:mesh_not_found");

    await as(db, bo).my.leaveMesh({ meshId: mesh.id });
    expect((await db.member.findUniqueOrThrow({ where: { id: bos.made.memberId } })).revokedAt).not.toBeNull();
    expect(await trpcOutcome((await register(bo, mesh.id)).call)).toBe("NOT_FOUND:mesh_not_found");
  });
});

describe("key backups", () => {
  it("hold only sealed text of the person's own live browser device, bounded, and go back only to that person", async () => {
    const { owner, mesh, invite } = await meshForBroker(db, harness.broker.ws);
    const ana = await makeUser(db);
    await as(db, ana).my.joinMesh({ token: invite.token });
    const mine = await device(ana, mesh.id);
    const owners = await device(owner, mesh.id);
    const sealed = toBase64Url(nacl.randomBytes(200));

    const stored = await as(db, ana).my.putKeyBackup({ meshId: mesh.id, memberId: mine.made.memberId, sealed });
    expect(stored.memberId).toBe(mine.made.memberId);
    // Another person's device, a too large or non-base64url blob: refused.
    expect(
      await trpcOutcome(as(db, ana).my.putKeyBackup({ meshId: mesh.id, memberId: owners.made.memberId, sealed })),
    ).toBe("NOT_FOUND:member_not_found");
    expect(
      await trpcOutcome(
        as(db, ana).my.putKeyBackup({ meshId: mesh.id, memberId: mine.made.memberId, sealed: "A".repeat(2_049) }),
      ),
    ).toMatch(/^BAD_REQUEST/);
    expect(
      await trpcOutcome(as(db, ana).my.putKeyBackup({ meshId: mesh.id, memberId: mine.made.memberId, sealed: "a+b/" })),
    ).toMatch(/^BAD_REQUEST/);
    // Replaced, not added: one per person and device.
    await as(db, ana).my.putKeyBackup({ meshId: mesh.id, memberId: mine.made.memberId, sealed: `${sealed}x` });
    expect(await db.keyBackup.count({ where: { memberId: mine.made.memberId } })).toBe(1);
    expect((await as(db, ana).my.keyBackup({ meshId: mesh.id, memberId: mine.made.memberId })).sealed).toBe(
      `${sealed}x`,
    );
    expect(await trpcOutcome(as(db, owner).my.keyBackup({ meshId: mesh.id, memberId: mine.made.memberId }))).toBe(
      "NOT_FOUND:key_backup_not_found",
    );
    const context = await as(db, ana).my.chatContext({ meshId: mesh.id });
    expect(context.devices.find((d) => d.memberId === mine.made.memberId)?.backedUpAt).toBeInstanceOf(Date);
    // Only the public halves ever reach the server: no secret key of the device is in any table.
    const secrets = [toBase64Url(mine.secrets.signSecretKey), toBase64Url(mine.secrets.boxSecretKey)];
    expect(await tablesContaining(db, secrets)).toEqual([]);
  });
});

describe("key epochs in the browser", () => {
  it("after a removal the browser and the command line exchange whole-mesh messages under the new epoch's key; the removed peer gets none", async () => {
    const { owner, mesh, invite, deps } = await meshForBroker(db, harness.broker.ws);
    const context = await as(db, owner).my.chatContext({ meshId: mesh.id });
    const { secrets } = await device(owner, mesh.id);
    const peers = [];
    for (const name of ["cli-a", "mallory"]) {
      const store = harness.store();
      const { config } = await joinWithLink(invite.inviteLink, { displayName: name, store });
      const client = harness.client(config, { epochKeyStore: store.epochKeyStore(config.meshId) });
      const inbox: ReceivedMessage[] = [];
      client.on("message", (m) => inbox.push(m));
      await client.connect();
      peers.push({ config, client, inbox });
    }
    const [cli, mallory] = peers as [(typeof peers)[number], (typeof peers)[number]];
    const seen: ChatMessage[] = [];
    const chat = new ChatClient({
      brokerUrl: harness.broker.ws,
      meshId: mesh.id,
      rootKey: context.rootKey,
      device: secrets,
      onMessage: (m) => seen.push(m),
      WebSocket: globalThis.WebSocket,
    });
    chat.start();
    await eventually(async () => chat.currentPeers.length > 0, 5_000);

    await removeMember({ ...deps, actor: actorOf(owner) }, { meshId: mesh.id, memberId: mallory.config.memberId });
    await eventually(async () => cli.client.keyEpoch === 1 && !mallory.client.connected, 10_000);
    // The browser creates the epoch's key and gives it to the live members before its message.
    await chat.sendText("from the browser under epoch 1");
    await eventually(async () => cli.inbox.some((m) => m.text === "from the browser under epoch 1"), 10_000);
    await cli.client.send("from the terminal under epoch 1");
    await eventually(async () => seen.some((m) => m.text === "from the terminal under epoch 1"), 10_000);
    expect(mallory.inbox.map((m) => m.text)).not.toContain("from the browser under epoch 1");

    // A newcomer's browser device, made after the epoch rose: it asks for the key it lacks and reads on.
    const late = await makeUser(db);
    await as(db, late).my.joinMesh({ token: invite.token });
    const lateDevice = await device(late, mesh.id);
    const lateSeen: ChatMessage[] = [];
    const lateChat = new ChatClient({
      brokerUrl: harness.broker.ws,
      meshId: mesh.id,
      rootKey: context.rootKey,
      device: lateDevice.secrets,
      onMessage: (m) => lateSeen.push(m),
      WebSocket: globalThis.WebSocket,
    });
    lateChat.start();
    await eventually(async () => lateChat.currentPeers.length > 0, 5_000);
    await cli.client.send("for everyone, newcomer included");
    await eventually(async () => lateSeen.some((m) => m.text === "for everyone, newcomer included"), 10_000);
    expect(lateSeen.map((m) => m.text)).not.toContain("from the terminal under epoch 1");
    lateChat.stop();
    chat.stop();
  });
});

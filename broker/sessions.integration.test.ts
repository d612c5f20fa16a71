// One identity per assistant session (issue 43, point 3): a machine's member makes session members with
// a signed POST /session (docs/protocol.md, "Session members"). The attacks come first: a member minting
// members without bound, a removed member minting, a forged signature, a key that is not the asker's.
import nacl from "tweetnacl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toBase64Url } from "@/server/core/encoding";
import { signSessionProof } from "@/server/services/sessions/session-proof";
import { testDb } from "@/test/helpers";
import { makeUser } from "@/test/mesh-fixtures";
import { signHookAuth, WS_AUTH_HEADER } from "./protocol/ws-auth";
import {
  as,
  connect,
  eventually,
  joinedPeer,
  meshWithInvite,
  startBroker,
  TestClient,
  type TestBroker,
  type TestPeer,
} from "./test-support";

const db = testDb();
let broker: TestBroker;
beforeAll(async () => {
  broker = await startBroker(db, {
    JOIN_RATE_PER_MINUTE: "10000",
    SESSION_MEMBERS_PER_PARENT: "3",
    SESSION_CREATE_RATE_CAPACITY: "10",
    SESSION_CREATE_RATE_PER_HOUR: "1",
    MEMBERSHIP_SWEEP_MS: "600000",
  });
});
afterAll(async () => {
  await broker.close();
  await db.$disconnect();
});

interface SessionAsk {
  keys?: nacl.SignKeyPair;
  box?: nacl.BoxKeyPair;
  /** Who signs the request's header (default: the parent). */
  signer?: Uint8Array;
  /** Who signs the proof (default: the new key). */
  prover?: Uint8Array;
  displayName?: string;
}

/** POST /session as `parent`; the new session's keys and the broker's answer. */
async function askSession(b: Pick<TestBroker, "http">, parent: TestPeer, ask: SessionAsk = {}) {
  const keys = ask.keys ?? nacl.sign.keyPair();
  const peerPubkey = toBase64Url(keys.publicKey);
  const boxPubkey = toBase64Url((ask.box ?? nacl.box.keyPair()).publicKey);
  const proof = signSessionProof({
    meshId: parent.meshId,
    parentMemberId: parent.memberId,
    peerPubkey,
    boxPubkey,
    secretKey: ask.prover ?? keys.secretKey,
  });
  const body = JSON.stringify({
    action: "session",
    meshId: parent.meshId,
    memberId: parent.memberId,
    peerPubkey,
    boxPubkey,
    displayName: ask.displayName ?? "api·3f9c2a1b",
    proof,
  });
  const auth = signHookAuth({
    meshId: parent.meshId,
    memberId: parent.memberId,
    secretKey: ask.signer ?? parent.keys.secretKey,
    body,
  });
  const res = await fetch(`${b.http}/session`, {
    method: "POST",
    headers: { "content-type": "application/json", [WS_AUTH_HEADER]: auth },
    body,
  });
  const json = (await res.json()) as Record<string, unknown> & { error?: { code: string } };
  const session: TestPeer = { meshId: parent.meshId, memberId: String(json.memberId), keys };
  return { status: res.status, json, session, headers: res.headers };
}

/** POST /leave signed by the peer (a session ends this way when its MCP server stops). */
function leave(b: Pick<TestBroker, "http">, peer: TestPeer) {
  const body = JSON.stringify({ action: "leave", meshId: peer.meshId, memberId: peer.memberId });
  const auth = signHookAuth({ meshId: peer.meshId, memberId: peer.memberId, secretKey: peer.keys.secretKey, body });
  return fetch(`${b.http}/leave`, {
    method: "POST",
    headers: { "content-type": "application/json", [WS_AUTH_HEADER]: auth },
    body,
  });
}

const liveSessionsOf = (parentId: string) => db.member.count({ where: { parentMemberId: parentId, revokedAt: null } });

describe("session members: attacks", () => {
  it("refuses a request whose signature is not the parent's, and makes nothing", async () => {
    const { invite } = await meshWithInvite(db);
    const parent = await joinedPeer(db, invite.token, "laptop");
    const forged = await askSession(broker, parent, { signer: nacl.sign.keyPair().secretKey });
    expect(forged.status).toBe(401);
    expect(forged.json).toEqual({ error: { code: "UNAUTHORIZED", message: "authentication failed" } });
    // A member id that does not exist, with a valid-looking signature of some key: the same answer.
    const ghost = await askSession(broker, { ...parent, memberId: crypto.randomUUID() });
    expect(ghost.status).toBe(401);
    expect(await liveSessionsOf(parent.memberId)).toBe(0);
  });

  it("refuses a new key whose holder did not sign the proof (a stranger's key cannot be taken over)", async () => {
    const { invite } = await meshWithInvite(db);
    const parent = await joinedPeer(db, invite.token, "laptop");
    const stranger = nacl.sign.keyPair();
    const taken = await askSession(broker, parent, { keys: stranger, prover: parent.keys.secretKey });
    expect(taken).toMatchObject({ status: 401, json: { error: { code: "key_proof_invalid" } } });
    // Nor can a parent claim another member's key, even holding it: key_in_use.
    const other = await joinedPeer(db, invite.token, "other");
    expect(await askSession(broker, parent, { keys: other.keys })).toMatchObject({
      status: 409,
      json: { error: { code: "key_in_use" } },
    });
    expect(await liveSessionsOf(parent.memberId)).toBe(0);
  });

  it("holds at most SESSION_MEMBERS_PER_PARENT live session members, also under concurrent requests", async () => {
    const { invite } = await meshWithInvite(db);
    const parent = await joinedPeer(db, invite.token, "laptop");
    // Eight at once (and two more below): ten requests, the parent's whole SESSION_CREATE_RATE_CAPACITY.
    const answers = await Promise.all(Array.from({ length: 8 }, () => askSession(broker, parent)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.every((a) => a.status === 429 && a.json.error?.code === "session_cap")).toBe(true);
    expect(await liveSessionsOf(parent.memberId)).toBe(3);
    // One ends (its MCP server stopped): there is room for one more, no more.
    const ended = answers.find((a) => a.status === 200)!;
    expect((await leave(broker, ended.session)).status).toBe(200);
    expect((await askSession(broker, parent)).status).toBe(200);
    expect((await askSession(broker, parent)).status).toBe(429);
    expect(await liveSessionsOf(parent.memberId)).toBe(3);
  });

  it("limits how many session members one parent makes, whatever it ends meanwhile (Retry-After)", async () => {
    const { invite } = await meshWithInvite(db);
    const parent = await joinedPeer(db, invite.token, "laptop");
    let made = 0;
    let last: Awaited<ReturnType<typeof askSession>> | undefined;
    for (let i = 0; i < 14; i++) {
      last = await askSession(broker, parent);
      if (last.status !== 200) break;
      made += 1;
      expect((await leave(broker, last.session)).status).toBe(200);
    }
    expect(made).toBe(10);
    expect(last).toMatchObject({ status: 429, json: { error: { code: "TOO_MANY_REQUESTS" } } });
    expect(Number(last?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(last?.headers.get("ratelimit-policy")).toContain('"session_parent"');
  });

  it("refuses a session member that asks for sessions of its own (no chains that escape the cap)", async () => {
    const { invite } = await meshWithInvite(db);
    const parent = await joinedPeer(db, invite.token, "laptop");
    const first = await askSession(broker, parent);
    expect(first.status).toBe(200);
    const nested = await askSession(broker, first.session);
    expect(nested).toMatchObject({ status: 403, json: { error: { code: "session_of_session" } } });
    expect(await liveSessionsOf(first.session.memberId)).toBe(0);
  });

  it("a removed member mints nothing, and its sessions end with it (sockets closed 4403, no reconnect)", async () => {
    const { owner, mesh, invite } = await meshWithInvite(db);
    const parent = await joinedPeer(db, invite.token, "laptop");
    const made = await askSession(broker, parent);
    expect(made.status).toBe(200);
    const session = await TestClient.open(broker, made.session);
    const closedAs = new Promise<{ code: number; reason: string }>((resolve) =>
      session.ws.once("close", (code, reason) => resolve({ code, reason: String(reason) })),
    );
    await as(db, owner).my.removeMember({ meshId: mesh.id, memberId: parent.memberId });
    expect(await closedAs).toEqual({ code: 4403, reason: "removed" });
    expect((await db.member.findUniqueOrThrow({ where: { id: made.session.memberId } })).revokedAt).toBeInstanceOf(
      Date,
    );
    expect(await connect(broker, made.session)).toMatchObject({ ok: false, status: 401 });
    expect((await askSession(broker, parent)).status).toBe(401);
  });

  it("a ban of the parent's person ends its sessions and keeps them out", async () => {
    const { owner, mesh, invite } = await meshWithInvite(db);
    const person = await makeUser(db, { name: "Pat" });
    const parent = await joinedPeer(db, invite.token, "pat-laptop");
    await db.member.update({ where: { id: parent.memberId }, data: { userId: person.id } });
    const made = await askSession(broker, parent);
    expect(made.status).toBe(200);
    expect((await db.member.findUniqueOrThrow({ where: { id: made.session.memberId } })).userId).toBe(person.id);
    await as(db, owner).my.removeMember({ meshId: mesh.id, memberId: made.session.memberId, ban: true });
    // Banning the session's person (the session is theirs) ends the parent too, and with it every session.
    expect(await db.member.count({ where: { meshId: mesh.id, userId: person.id, revokedAt: null } })).toBe(0);
    expect(await connect(broker, parent)).toMatchObject({ ok: false, status: 401 });
    expect((await askSession(broker, parent)).status).toBe(401);
  });

  it("a parent that leaves takes its sessions along; a session that leaves leaves the parent and the key epoch", async () => {
    const { mesh, invite } = await meshWithInvite(db);
    const parent = await joinedPeer(db, invite.token, "laptop");
    const [a, b] = [await askSession(broker, parent), await askSession(broker, parent)];
    const epoch = async () => (await db.mesh.findUniqueOrThrow({ where: { id: mesh.id } })).keyEpoch;
    const before = await epoch();
    expect((await leave(broker, a.session)).status).toBe(200);
    expect(await epoch()).toBe(before);
    expect(await liveSessionsOf(parent.memberId)).toBe(1);
    expect((await leave(broker, parent)).status).toBe(200);
    expect(await epoch()).toBe(before + 1);
    expect((await db.member.findUniqueOrThrow({ where: { id: b.session.memberId } })).revokedAt).toBeInstanceOf(Date);
  });
});

describe("session members", () => {
  it("inherit the parent's role, groups, person and invite, and are found again by their key", async () => {
    const { invite } = await meshWithInvite(db, { role: "observer" });
    const parent = await joinedPeer(db, invite.token, "laptop");
    await db.member.update({ where: { id: parent.memberId }, data: { groups: ["backend"] } });
    const keys = nacl.sign.keyPair();
    const box = nacl.box.keyPair();
    const made = await askSession(broker, parent, { keys, box, displayName: "api·3f9c2a1b" });
    expect(made).toMatchObject({
      status: 200,
      json: { role: "observer", parentMemberId: parent.memberId, displayName: "api·3f9c2a1b", rejoined: false },
    });
    const row = await db.member.findUniqueOrThrow({ where: { id: made.session.memberId } });
    const parentRow = await db.member.findUniqueOrThrow({ where: { id: parent.memberId } });
    expect(row).toMatchObject({ groups: ["backend"], inviteId: parentRow.inviteId, parentMemberId: parent.memberId });
    expect(row.boxPubkey).toBe(toBase64Url(box.publicKey));
    // The same session asking again (its MCP server restarted) gets the same member, no new one.
    const again = await askSession(broker, parent, { keys, box });
    expect(again).toMatchObject({ status: 200, json: { memberId: made.session.memberId, rejoined: true } });
    expect(await liveSessionsOf(parent.memberId)).toBe(1);
    const conn = await connect(broker, made.session);
    expect(conn.ok).toBe(true);
    if (conn.ok) conn.ws.close();
  });

  it("end when idle past SESSION_IDLE_MS (a session whose assistant went away without a word)", async () => {
    const short = await startBroker(db, { JOIN_RATE_PER_MINUTE: "10000", SESSION_IDLE_MS: "1500" });
    try {
      const { invite } = await meshWithInvite(db);
      const parent = await joinedPeer(db, invite.token, "laptop");
      const [idle, busy] = [await askSession(short, parent), await askSession(short, parent)];
      const live = await TestClient.open(short, busy.session);
      await eventually(
        async () => (await db.member.findUniqueOrThrow({ where: { id: idle.session.memberId } })).revokedAt !== null,
        6_000,
      );
      // The connected one stays; so does the parent.
      expect((await db.member.findUniqueOrThrow({ where: { id: busy.session.memberId } })).revokedAt).toBeNull();
      expect((await db.member.findUniqueOrThrow({ where: { id: parent.memberId } })).revokedAt).toBeNull();
      await live.close();
    } finally {
      await short.close();
    }
  });

  it("make room by ending the parent's idle ones when the cap is reached", async () => {
    const tight = await startBroker(db, {
      JOIN_RATE_PER_MINUTE: "10000",
      SESSION_MEMBERS_PER_PARENT: "2",
      SESSION_IDLE_MS: "10000",
    });
    try {
      const { invite } = await meshWithInvite(db);
      const parent = await joinedPeer(db, invite.token, "laptop");
      const [old, live] = [await askSession(tight, parent), await askSession(tight, parent)];
      const client = await TestClient.open(tight, live.session);
      expect((await askSession(tight, parent)).status).toBe(429);
      // A tenth of SESSION_IDLE_MS later the unconnected one may go; the connected one never.
      await new Promise((r) => setTimeout(r, 1_100));
      expect((await askSession(tight, parent)).status).toBe(200);
      expect((await db.member.findUniqueOrThrow({ where: { id: old.session.memberId } })).revokedAt).toBeInstanceOf(
        Date,
      );
      expect((await db.member.findUniqueOrThrow({ where: { id: live.session.memberId } })).revokedAt).toBeNull();
      await client.close();
    } finally {
      await tight.close();
    }
  });
});

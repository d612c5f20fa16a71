// Presence that tells the truth (issue 43, point 3): a peer connected only to send (the one-shot command
// line, `receive=0`) is online but cannot receive; the broker pushes it no messages, and `peers`, the web
// app's member list and its live view say so (docs/protocol.md, "Connecting").
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDb } from "@/test/helpers";
import type { TPeerInfo, TServerFrame } from "./protocol/frames";
import { signWsAuth, WS_AUTH_HEADER } from "./protocol/ws-auth";
import {
  as,
  eventually,
  fakeCiphertext,
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
  broker = await startBroker(db, { JOIN_RATE_PER_MINUTE: "1000", MESSAGE_ACK_TIMEOUT_MS: "300" });
});
afterAll(async () => {
  await broker.close();
  await db.$disconnect();
});

/** Opens /ws with a `receive` query value; resolves with the socket and its frames, or the refusal's status. */
function open(peer: TestPeer, receive: string) {
  const auth = signWsAuth({ meshId: peer.meshId, memberId: peer.memberId, secretKey: peer.keys.secretKey });
  const ws = new WebSocket(`${broker.ws}/ws?mesh=${peer.meshId}&member=${peer.memberId}&receive=${receive}`, {
    headers: { [WS_AUTH_HEADER]: auth },
  });
  ws.on("error", () => {});
  const frames: TServerFrame[] = [];
  return new Promise<{ ws: WebSocket; frames: TServerFrame[] } | { status: number }>((resolve) => {
    ws.on("message", (data) => {
      const f = JSON.parse(String(data)) as TServerFrame;
      frames.push(f);
      if (f.type === "welcome") resolve({ ws, frames });
    });
    ws.on("unexpected-response", (_req, res) => resolve({ status: res.statusCode ?? 0 }));
  });
}

async function peersSeenBy(client: TestClient): Promise<TPeerInfo[]> {
  const id = `p${Math.random().toString(36).slice(2)}`;
  client.raw({ v: 1, type: "peers", id });
  const f = await client.next((x) => x.type === "peers" && x.id === id);
  return f.type === "peers" ? f.peers : [];
}

describe("presence: can receive or only sends", () => {
  it("tells a connection that only sends from one that receives, everywhere peers are shown", async () => {
    const { owner, mesh, invite } = await meshWithInvite(db);
    const ana = await joinedPeer(db, invite.token, "ana");
    const bo = await joinedPeer(db, invite.token, "bo");
    const watcher = await TestClient.open(broker, ana);

    // Bo connects only to send: online, but no message reaches him now.
    const sending = await open(bo, "0");
    if (!("ws" in sending)) throw new Error(`refused ${sending.status}`);
    const row = (peers: TPeerInfo[]) => peers.find((p) => p.memberId === bo.memberId);
    expect(row(await peersSeenBy(watcher))).toMatchObject({ online: true, receiving: false, parentMemberId: null });
    expect(row(await peersSeenBy(watcher))?.receiving).toBe(false);
    expect((await peersSeenBy(watcher)).find((p) => p.memberId === ana.memberId)).toMatchObject({
      online: true,
      receiving: true,
    });
    const detail = await as(db, owner).my.mesh({ meshId: mesh.id });
    expect(detail.members.find((m) => m.id === bo.memberId)).toMatchObject({ online: true, canReceive: false });
    const live = await as(db, owner).my.stream({ meshId: mesh.id });
    expect(live.members.find((m) => m.id === bo.memberId)).toMatchObject({ online: true, canReceive: false });

    // A message to Bo is stored and queued, but not pushed to the connection that only sends (nor redelivered to it).
    const sent = await watcher.send({ kind: "peer", memberId: bo.memberId }, fakeCiphertext());
    expect(sent.type).toBe("sent");
    await new Promise((r) => setTimeout(r, 800));
    expect(sending.frames.filter((f) => f.type === "message")).toHaveLength(0);
    expect(await db.messageRecipient.count({ where: { memberId: bo.memberId } })).toBe(1);

    // Bo's receiving session comes: it gets the message, and peers now see him as one that can receive.
    const receiving = await TestClient.open(broker, bo);
    await receiving.waitMessages(1);
    expect(row(await peersSeenBy(watcher))).toMatchObject({ online: true, receiving: true });
    expect((await as(db, owner).my.mesh({ meshId: mesh.id })).members.find((m) => m.id === bo.memberId)).toMatchObject({
      canReceive: true,
    });
    await receiving.close();
    await eventually(async () => row(await peersSeenBy(watcher))?.receiving === false);
    sending.ws.close();
    await eventually(async () => row(await peersSeenBy(watcher))?.online === false);

    // The live presence frames said each change as it happened: online sending only, receiving, sending
    // only again (its receiving session closed), offline.
    const changes = () =>
      watcher.frames.flatMap((f) =>
        f.type === "presence" && f.memberId === bo.memberId ? [{ online: f.online, receiving: f.receiving }] : [],
      );
    await eventually(async () => changes().length >= 4);
    expect(changes()).toEqual([
      { online: true, receiving: false },
      { online: true, receiving: true },
      { online: true, receiving: false },
      { online: false, receiving: false },
    ]);
    await watcher.close();
  });

  it("refuses a receive value other than 0 or 1 before the upgrade", async () => {
    const { invite } = await meshWithInvite(db);
    const ana = await joinedPeer(db, invite.token, "ana");
    expect(await open(ana, "maybe")).toEqual({ status: 400 });
    const ok = await open(ana, "1");
    expect("ws" in ok).toBe(true);
    if ("ws" in ok) ok.ws.close();
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDb } from "@/test/helpers";
import {
  connect,
  fakeCiphertext,
  joinedPeer,
  meshWithInvite,
  startBroker,
  TestClient,
  type TestBroker,
} from "./test-support";

// Two broker nodes on one database, as two processes would run them (each its own pools, LISTEN
// connection and node id).
const db = testDb();
let one: TestBroker;
let two: TestBroker;
beforeAll(async () => {
  [one, two] = await Promise.all([
    startBroker(db, { MAX_CONNECTIONS_PER_MESH: "3" }),
    startBroker(db, { MAX_CONNECTIONS_PER_MESH: "3" }),
  ]);
});
afterAll(async () => {
  await Promise.all([one.close(), two.close()]);
  await db.$disconnect();
});

async function meshOf(n: number) {
  const { invite } = await meshWithInvite(db);
  const peers = [];
  for (let i = 0; i < n; i++) peers.push(await joinedPeer(db, invite.token, `peer ${i}`));
  return peers;
}

describe("several broker nodes", () => {
  it("passes messages between peers connected to different nodes, direct and mesh-wide, their ciphertext byte for byte", async () => {
    const [a, b, c] = await meshOf(3);
    const ca = await TestClient.open(one, a!);
    const cb = await TestClient.open(two, b!);
    const cc = await TestClient.open(one, c!);
    // Every byte value, and sizes around base64's groups of three: read back from the database by the other node.
    const first = fakeCiphertext(1000);
    const direct = await ca.send({ kind: "peer", memberId: b!.memberId }, first);
    const [got] = await cb.waitMessages(1);
    expect(got).toMatchObject({
      messageId: direct.type === "sent" ? direct.messageId : "?",
      from: a!.memberId,
      ciphertext: first,
    });

    const second = Buffer.from(Array.from({ length: 256 * 3 + 1 }, (_, i) => i % 256)).toString("base64url");
    const all = await cb.send({ kind: "mesh" }, second);
    expect(all).toMatchObject({ type: "sent", recipients: 2 });
    expect((await ca.waitMessages(1))[0]).toMatchObject({ from: b!.memberId, ciphertext: second });
    expect((await cc.waitMessages(1))[0]).toMatchObject({ from: b!.memberId, ciphertext: second });
    await Promise.all([ca.close(), cb.close(), cc.close()]);
  });

  it("keeps the order of one sender's messages across nodes", async () => {
    const [a, b] = await meshOf(2);
    const ca = await TestClient.open(one, a!);
    const cb = await TestClient.open(two, b!);
    const ids: string[] = [];
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => ca.send({ kind: "peer", memberId: b!.memberId }, fakeCiphertext())),
    );
    for (const s of answers) if (s.type === "sent") ids.push(s.messageId);
    const got = await cb.waitMessages(40);
    expect(got.map((m) => m.messageId)).toEqual(ids);
    await Promise.all([ca.close(), cb.close()]);
  });

  it("counts the connection cap across nodes: the fourth connection on either node is closed 1008 capacity", async () => {
    const peers = await meshOf(4);
    const open = [
      await TestClient.open(one, peers[0]!),
      await TestClient.open(two, peers[1]!),
      await TestClient.open(one, peers[2]!),
    ];
    // Accepted as a WebSocket, then closed with 1008 before any welcome.
    await expect(connect(two, peers[3]!)).rejects.toThrow("closed before welcome: 1008 capacity");
    expect(await (await fetch(`${two.http}/metrics`)).text()).toMatch(/^broker_capacity_rejections_total [1-9]/m);
    // A slot freed on one node is usable from the other.
    await open[0]!.close();
    await new Promise((r) => setTimeout(r, 200));
    const again = await TestClient.open(two, peers[3]!);
    await Promise.all([again.close(), open[1]!.close(), open[2]!.close()]);
  });

  it("tells peers on the other node about status changes and presence", async () => {
    const [a, b] = await meshOf(2);
    const cb = await TestClient.open(two, b!);
    const ca = await TestClient.open(one, a!);
    expect(await cb.next((f) => f.type === "presence" && f.memberId === a!.memberId && f.online)).toBeTruthy();
    ca.raw({ v: 1, type: "set_status", id: "s1", status: "working", text: "on the release" });
    expect(await ca.next((f) => f.type === "status" && f.id === "s1")).toMatchObject({
      status: "working",
      text: "on the release",
    });
    expect(await cb.next((f) => f.type === "status" && f.memberId === a!.memberId)).toMatchObject({
      status: "working",
      text: "on the release",
    });
    cb.raw({ v: 1, type: "peers", id: "p" });
    const peers = await cb.next((f) => f.type === "peers" && f.id === "p");
    expect(peers.type === "peers" && peers.peers.find((p) => p.memberId === a!.memberId)).toMatchObject({
      online: true,
      status: "working",
    });
    await ca.close();
    expect(await cb.next((f) => f.type === "presence" && f.memberId === a!.memberId && !f.online)).toBeTruthy();
    await cb.close();
  });
});

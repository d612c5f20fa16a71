// Issue 17, point 7: a connection proof (or a hook request) captured on one broker node cannot be
// replayed on another node within the clock window. Two broker processes on one database.
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDb } from "@/test/helpers";
import { signHookAuth, signWsAuth, WS_AUTH_HEADER } from "./protocol/ws-auth";
import { brokerProcess, joinedPeer, meshWithInvite, type BrokerProcess, type TestPeer } from "./test-support";

const db = testDb();
let nodes: BrokerProcess[] = [];

beforeAll(async () => {
  nodes = await Promise.all([brokerProcess("replay"), brokerProcess("replay")]);
}, 120_000);
afterAll(async () => {
  for (const n of nodes) n.child.kill("SIGTERM");
  await Promise.all(nodes.map((n) => n.exited));
  await db.$disconnect();
});

/** Opens /ws with a given proof: the welcome's type, or the HTTP status of the refusal. */
function open(node: BrokerProcess, peer: TestPeer, auth: string): Promise<string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${node.ws}/ws?mesh=${peer.meshId}&member=${peer.memberId}`, {
      headers: { [WS_AUTH_HEADER]: auth },
    });
    ws.on("message", (data) => {
      resolve((JSON.parse(String(data)) as { type: string }).type);
      ws.close();
    });
    ws.on("unexpected-response", (_req, res) => resolve(`HTTP ${res.statusCode}`));
    ws.on("error", () => {});
  });
}

describe("proofs are single-use across nodes", () => {
  it("refuses on node B a connection proof already used on node A", async () => {
    const { invite } = await meshWithInvite(db);
    const peer = await joinedPeer(db, invite.token, "p");
    const auth = signWsAuth({ meshId: peer.meshId, memberId: peer.memberId, secretKey: peer.keys.secretKey });
    expect(await open(nodes[0]!, peer, auth)).toBe("welcome");
    expect(await open(nodes[1]!, peer, auth)).toBe("HTTP 401");
    expect(await open(nodes[0]!, peer, auth)).toBe("HTTP 401");
    // A fresh proof goes through on either node.
    expect(
      await open(
        nodes[1]!,
        peer,
        signWsAuth({ meshId: peer.meshId, memberId: peer.memberId, secretKey: peer.keys.secretKey }),
      ),
    ).toBe("welcome");
  });

  it("refuses on node B a hook request already accepted by node A", async () => {
    const { invite } = await meshWithInvite(db);
    const peer = await joinedPeer(db, invite.token, "p");
    const body = JSON.stringify({
      meshId: peer.meshId,
      memberId: peer.memberId,
      pid: 99,
      cwd: "/tmp/replay",
      status: "working",
    });
    const auth = signHookAuth({ meshId: peer.meshId, memberId: peer.memberId, secretKey: peer.keys.secretKey, body });
    const post = (node: BrokerProcess) =>
      fetch(`${node.http}/hook/set-status`, {
        method: "POST",
        headers: { "content-type": "application/json", [WS_AUTH_HEADER]: auth },
        body,
      });
    expect((await post(nodes[0]!)).status).toBe(200);
    expect((await post(nodes[1]!)).status).toBe(401);
  });
});

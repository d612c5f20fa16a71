import { createHash, randomBytes } from "node:crypto";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDb } from "@/test/helpers";
import { CLUSTER_PATH, LINK_NODE_HEADER, LINK_TICKET_HEADER } from "./cluster/links";
import { decodeRelay } from "./cluster/relay-format";
import {
  eventually,
  fakeCiphertext,
  metric,
  joinedPeer,
  meshWithInvite,
  startBroker,
  TestClient,
  type TestBroker,
} from "./test-support";

// The links between broker nodes (docs/protocol.md, "Several nodes"): a node hands the others each batch
// it stores; they deliver from the link instead of reading the batch back, and read it back when the
// link is not there.
const db = testDb();
let one: TestBroker;
let two: TestBroker;
beforeAll(async () => {
  // One after the other: the second finds the first in broker_nodes when it starts.
  one = await startBroker(db);
  two = await startBroker(db);
});
afterAll(async () => {
  await Promise.all([one.close(), two.close()]);
  await db.$disconnect();
});

const noticeReads = (b: TestBroker) => metric(b, /^broker_notice_reads_total (\d+)/m);
const relayedIn = (b: TestBroker) => metric(b, /^broker_relay_messages_total\{direction="received"\} (\d+)/m);
const linked = () => one.links.receivesFrom(two.nodeId) && two.links.receivesFrom(one.nodeId);

async function pair() {
  const { invite } = await meshWithInvite(db);
  const a = await joinedPeer(db, invite.token, "a");
  const b = await joinedPeer(db, invite.token, "b");
  return { a: await TestClient.open(one, a), b: await TestClient.open(two, b), bId: b.memberId };
}

function link(broker: TestBroker, headers: Record<string, string>): Promise<WebSocket | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${broker.ws}${CLUSTER_PATH}`, { headers });
    ws.once("open", () => resolve(ws));
    ws.once("unexpected-response", (_req, res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    ws.once("error", () => resolve(-1));
  });
}

async function ticketFor(node: string): Promise<string> {
  const ticket = randomBytes(32).toString("base64url");
  const hash = createHash("sha256").update(ticket).digest("hex");
  await db.$executeRaw`INSERT INTO broker_link_tickets (ticket_hash, node_id, expires_at) VALUES (${hash}, ${node}, now() AT TIME ZONE 'UTC' + interval '1 minute')`;
  return ticket;
}

describe("links between broker nodes", () => {
  it("hand a node's batches to the other node, which delivers them without reading them back", async () => {
    await eventually(async () => linked(), 20_000);
    const { a, b, bId } = await pair();
    const [reads, relayed] = [await noticeReads(two), await relayedIn(two)];
    const texts = Array.from({ length: 30 }, () => fakeCiphertext(200));
    const ids: string[] = [];
    for (const answer of await Promise.all(texts.map((t) => a.send({ kind: "peer", memberId: bId }, t))))
      if (answer.type === "sent") ids.push(answer.messageId);
    const got = await b.waitMessages(30);
    expect(got.map((m) => [m.messageId, m.ciphertext, m.attempt])).toEqual(ids.map((id, i) => [id, texts[i], 1]));
    expect(await relayedIn(two)).toBeGreaterThanOrEqual(relayed + 30);
    // Their notifications came too (PostgreSQL sends them at commit) and found the link's copies.
    await new Promise((r) => setTimeout(r, 300));
    expect(await noticeReads(two)).toBe(reads);
    await Promise.all([a.close(), b.close()]);
  });

  it("cut: the batches are read back from the database meanwhile, and the link opens again", async () => {
    await eventually(async () => linked(), 20_000);
    const { a, b, bId } = await pair();
    const reads = await noticeReads(two);
    one.links.cut(two.nodeId);
    await eventually(async () => !two.links.receivesFrom(one.nodeId));
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => a.send({ kind: "peer", memberId: bId }, fakeCiphertext())),
    );
    expect((await b.waitMessages(10)).map((m) => m.messageId)).toEqual(
      answers.map((s) => (s.type === "sent" ? s.messageId : "?")),
    );
    expect(await noticeReads(two)).toBeGreaterThan(reads);
    await eventually(async () => linked(), 20_000);
    await Promise.all([a.close(), b.close()]);
  });

  it("opens only with a ticket written to the database for that node, once", async () => {
    expect(await link(one, {})).toBe(401);
    expect(
      await link(one, { [LINK_NODE_HEADER]: "intruder", [LINK_TICKET_HEADER]: randomBytes(32).toString("base64url") }),
    ).toBe(401);
    const stolen = await ticketFor("node-x");
    expect(await link(one, { [LINK_NODE_HEADER]: "node-y", [LINK_TICKET_HEADER]: stolen })).toBe(401);
    // Taken by the failed attempt: a ticket is single use whatever the outcome.
    expect(await link(one, { [LINK_NODE_HEADER]: "node-x", [LINK_TICKET_HEADER]: stolen })).toBe(401);

    const ticket = await ticketFor("node-z");
    const ws = await link(one, { [LINK_NODE_HEADER]: "node-z", [LINK_TICKET_HEADER]: ticket });
    expect(ws).toBeInstanceOf(WebSocket);
    const parts: Buffer[] = [];
    (ws as WebSocket).on("message", (data) => parts.push(data as Buffer));
    const { invite } = await meshWithInvite(db);
    const sender = await joinedPeer(db, invite.token, "a");
    const a = await TestClient.open(one, sender);
    const c = await joinedPeer(db, invite.token, "c");
    const text = fakeCiphertext(64);
    const sent = await a.send({ kind: "peer", memberId: c.memberId }, text);
    await eventually(async () =>
      parts.some((p) => decodeRelay(p)?.messages.some((m) => sent.type === "sent" && m.id === sent.messageId)),
    );
    const relayed = parts
      .map((p) => decodeRelay(p)!)
      .flatMap((chunk) => chunk.messages)
      .find((m) => sent.type === "sent" && m.id === sent.messageId)!;
    expect(relayed.recipients).toEqual([c.memberId]);
    expect(JSON.parse(relayed.text.toString("utf8"))).toMatchObject({
      type: "message",
      ciphertext: text,
      from: sender.memberId,
      attempt: 1,
    });
    (ws as WebSocket).terminate();
    expect(await link(one, { [LINK_NODE_HEADER]: "node-z", [LINK_TICKET_HEADER]: ticket })).toBe(401);
    await a.close();
  });
});

// `mesh mcp` driven by an MCP client of the official SDK, as a coding assistant would start it, against
// a real broker on a loopback port and real PostgreSQL; the other peer is the `mesh` command line.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setMemberGroups } from "@/server/services/meshes/members";
import { testDb } from "@/test/helpers";
import { ctxOf } from "@/test/mesh-fixtures";
import { meshForBroker } from "../client/test-mesh";
import { startBroker, type TestBroker } from "../test-support";
import { MeshProcesses, until } from "./test-cli";
import { assistant } from "./test-mcp";

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

type Shown = { id: string; from: string; text: string; priority: string; direct: boolean };

describe("mesh mcp", () => {
  it("lists its tools, sends and reads messages, pushes them as notifications, and keeps what arrives between calls", async () => {
    const { invite } = await meshForBroker(db, broker.ws);
    const [ana, bo] = [procs.home(), procs.home()];
    expect((await procs.done(ana, ["join", invite.joinUrl, "--name", "Ana"])).code).toBe(0);
    expect((await procs.done(bo, ["join", invite.joinUrl, "--name", "Bo"])).code).toBe(0);
    const watch = procs.run(bo, ["watch", "--json"]);
    await until(() => watch.stderr().includes("connected to mesh"), "Bo's watcher");

    let a = await assistant(ana);
    const tools = (await a.client.listTools()).tools;
    expect(tools.map((t) => t.name).sort()).toEqual([
      "list_peers",
      "message_status",
      "read_messages",
      "reply",
      "send_message",
      "set_status",
      "whoami",
    ]);
    const send = tools.find((t) => t.name === "send_message")!;
    expect(send.inputSchema).toMatchObject({
      type: "object",
      required: ["text"],
      properties: {
        text: { type: "string" },
        to: { type: "array" },
        priority: { enum: ["low", "normal", "high", "urgent"] },
      },
    });
    expect(Object.keys(tools.find((t) => t.name === "read_messages")!.inputSchema.properties ?? {}).sort()).toEqual([
      "limit",
      "wait",
    ]);

    // Peers, once the connection is up.
    const peers = await a.call("list_peers");
    expect(peers.error).toBe(false);
    expect((peers.value as { name: string; you: boolean }[]).map((p) => [p.name, p.you]).sort()).toEqual([
      ["Ana", true],
      ["Bo", false],
    ]);
    // Each with its device (the peer's own name; name is the person's account when the device is linked), status and groups.
    expect((peers.value as Record<string, unknown>[])[0]).toEqual(
      expect.objectContaining({
        device: expect.any(String),
        member_id: expect.any(String),
        online: expect.any(Boolean),
        status: null,
        status_text: null,
        groups: [],
      }),
    );
    // Whether a person on this machine verified each peer's safety number: not yet, then after `mesh verify --mark`.
    const verifiedOf = async () =>
      Object.fromEntries(
        ((await a.call("list_peers")).value as { name: string; verified: string | null }[]).map((p) => [
          p.name,
          p.verified,
        ]),
      );
    expect(await verifiedOf()).toEqual({ Ana: null, Bo: "unverified" });
    expect((await procs.done(ana, ["verify", "Bo", "--mark"])).code).toBe(0);
    expect(await verifiedOf()).toEqual({ Ana: null, Bo: "verified" });

    // Ana → Bo through the tool; Bo's command line shows it.
    const sent = await a.call("send_message", { text: "hi Bo, from the assistant", to: ["bo"], priority: "high" });
    expect(sent).toMatchObject({ error: false, value: { recipients: 1 } });
    const lines = () =>
      watch
        .stdout()
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    await until(() => lines().some((l) => l.text === "hi Bo, from the assistant"), "the message at Bo");
    expect(lines().find((l) => l.text === "hi Bo, from the assistant")).toMatchObject({
      fromName: "Ana",
      direct: true,
      priority: "high",
    });
    // An unknown peer is a tool error, not a crash.
    expect((await a.call("send_message", { text: "x", to: ["nobody"] })).error).toBe(true);

    // Bo → Ana while no tool call runs: a notification, and the inbox keeps it for read_messages.
    expect((await procs.done(bo, ["send", "--to", "Ana", "first"])).code).toBe(0);
    expect((await procs.done(bo, ["send", "second, to everyone"])).code).toBe(0);
    await until(() => a.notes.filter((n) => n.type === "message").length === 2, "two notifications");
    expect(a.notes.filter((n) => n.type === "message").map((n) => n.text)).toEqual(["first", "second, to everyone"]);
    const read = await a.call("read_messages");
    expect((read.value as { messages: Shown[] }).messages.map((m) => [m.from, m.text, m.direct])).toEqual([
      ["Bo", "first", true],
      ["Bo", "second, to everyone", false],
    ]);
    // Marked read: a second call has none.
    expect((await a.call("read_messages")).value).toMatchObject({ messages: [] });

    // Long-poll: a read that waits gets the message sent meanwhile.
    const waiting = a.call("read_messages", { wait: 20 });
    await new Promise((r) => setTimeout(r, 300));
    expect((await procs.done(bo, ["send", "--to", "Ana", "while you waited"])).code).toBe(0);
    expect(((await waiting).value as { messages: Shown[] }).messages.map((m) => m.text)).toEqual(["while you waited"]);

    // Status through the tool reaches Bo.
    expect((await a.call("set_status", { status: "working", text: "refactoring" })).error).toBe(false);
    await until(() => lines().some((l) => l.type === "status" && l.status === "working"), "Ana's status at Bo");
    // While Ana is working, Bo's normal messages wait (docs/protocol.md, "Priorities"); an urgent one does not.
    expect((await procs.done(bo, ["send", "--to", "Ana", "--priority", "urgent", "build is red"])).code).toBe(0);
    expect(
      ((await a.call("read_messages", { wait: 20 })).value as { messages: Shown[] }).messages.map((m) => m.text),
    ).toEqual(["build is red"]);
    expect((await a.call("set_status", { status: "idle" })).error).toBe(false);

    // The assistant goes away; a message sent then waits at the broker and reaches the next session.
    await a.close();
    expect((await procs.done(bo, ["send", "--to", "Ana", "while you were away"])).code).toBe(0);
    a = await assistant(ana);
    expect(
      ((await a.call("read_messages", { wait: 20 })).value as { messages: Shown[] }).messages.map((m) => m.text),
    ).toEqual(["while you were away"]);
    // The inbox is private to its owner.
    const dir = path.join(ana, "inbox");
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const f of readdirSync(dir)) expect(statSync(path.join(dir, f)).mode & 0o777, f).toBe(0o600);
    await a.close();
  }, 90_000);

  it("mesh inbox prints the unread messages once, without watching, and acknowledges them", async () => {
    const { invite } = await meshForBroker(db, broker.ws);
    const [bo, cy] = [procs.home(), procs.home()];
    expect((await procs.done(bo, ["join", invite.joinUrl, "--name", "Bo"])).code).toBe(0);
    expect((await procs.done(cy, ["join", invite.joinUrl, "--name", "Cy"])).code).toBe(0);
    // Cy is offline: both wait in its queue at the broker.
    expect((await procs.done(bo, ["send", "--to", "Cy", "one"])).code).toBe(0);
    expect((await procs.done(bo, ["send", "two, for everyone"])).code).toBe(0);
    const first = await procs.done(cy, ["inbox", "--json"]);
    expect(first.code).toBe(0);
    const read = first.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { text: string; fromName: string | null });
    expect(read.map((m) => m.text)).toEqual(["one", "two, for everyone"]);
    // Read means acknowledged: nothing the second time.
    const second = await procs.done(cy, ["inbox"]);
    expect(second).toMatchObject({ code: 0, out: "" });
    expect(second.err).toContain("no unread messages");
  }, 60_000);

  it("sends to @group: the groups chosen at join, or set by the owner, as peers list them", async () => {
    const { invite, owner, mesh } = await meshForBroker(db, broker.ws);
    const [ana, bo, cy] = [procs.home(), procs.home(), procs.home()];
    expect((await procs.done(ana, ["join", invite.joinUrl, "--name", "Ana", "--group", "backend"])).code).toBe(0);
    expect(
      (await procs.done(bo, ["join", invite.joinUrl, "--name", "Bo", "--group", "Backend", "--group", "ops"])).code,
    ).toBe(0);
    const joined = await procs.done(cy, ["join", invite.joinUrl, "--name", "Cy", "--json"]);
    const cyId = (JSON.parse(joined.out) as { memberId: string }).memberId;
    const peers = JSON.parse((await procs.done(cy, ["peers", "--json"])).out) as {
      displayName: string;
      groups: string[];
    }[];
    expect(Object.fromEntries(peers.map((p) => [p.displayName, p.groups]))).toEqual({
      Ana: ["backend"],
      Bo: ["backend", "ops"],
      Cy: [],
    });

    expect((await procs.done(cy, ["send", "--to", "@backend", "for the backend"])).code).toBe(0);
    const texts = async (home: string) =>
      (await procs.done(home, ["inbox", "--json"])).out
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { text: string }).text);
    expect(await texts(ana)).toEqual(["for the backend"]);
    expect(await texts(bo)).toEqual(["for the backend"]);
    // A group nobody else is in is refused before anything is sent.
    const none = await procs.done(cy, ["send", "--to", "@design", "x"]);
    expect(none.code).toBe(1);
    expect(none.err).toContain("no other peer is in group @design");

    // The owner puts Cy into ops: Ana's message to @ops reaches Bo and Cy.
    await setMemberGroups(ctxOf(db, owner), { meshId: mesh.id, memberId: cyId, groups: ["ops"] });
    expect((await procs.done(ana, ["send", "--to", "@ops", "ops only"])).code).toBe(0);
    expect(await texts(bo)).toEqual(["ops only"]);
    expect(await texts(cy)).toEqual(["ops only"]);
  }, 60_000);
});

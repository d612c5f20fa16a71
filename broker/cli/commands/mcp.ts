import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { MeshClient, type ReceivedMessage, type TMeshConfig } from "../../client";
import { Inbox } from "../../client/inbox";
import { MESSAGE_PRIORITIES } from "../../protocol/frames";
import { CliFailure, EXIT, parseCommandArgs, UsageError, type CliIo } from "../io";
import { asFailure, resolvePeers } from "../session";
import { IDENTITY_OPTIONS, mcpIdentity } from "./mcp-identity";
import { registerWhoami } from "./mcp-whoami";

/** How long a tool call waits for the broker connection before it answers with an error. */
const CONNECT_WAIT_MS = 15_000;
/** The longest `read_messages` long-poll, in seconds. */
export const READ_WAIT_MAX_SECONDS = 60;

type ToolResult = { content: { type: "text"; text: string }[]; isError?: boolean };
const ok = (value: unknown): ToolResult => ({ content: [{ type: "text", text: JSON.stringify(value) }] });
const failed = (error: unknown): ToolResult => {
  const f = asFailure(error);
  return { content: [{ type: "text", text: f instanceof Error ? f.message : String(f) }], isError: true };
};

/** A received message as the tools and notifications show it (no keys, no ciphertext). */
function shown(m: ReceivedMessage) {
  return {
    id: m.messageId,
    from: m.fromName ?? m.from,
    from_member_id: m.from,
    direct: m.direct,
    priority: m.priority,
    text: m.text,
    created_at: m.createdAt,
  };
}

/**
 * `mesh mcp [--mesh <slug>]`: an MCP server over stdio for one joined mesh (docs/cli.md, "Use the mesh
 * from a coding assistant"). One broker connection with the client library's reconnects; every
 * message received goes to the local inbox first and is pushed to the MCP client as a logging
 * notification; the tools list peers, send, read (taking from the inbox) and set the status.
 */
export async function mcpCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, IDENTITY_OPTIONS);
  if (positionals.length > 0) throw new UsageError("no arguments expected");
  // The machine's member, or with --session the member of this assistant session (mcp-identity.ts).
  const identity = await mcpIdentity(io, values);
  const { config, inbox } = identity;
  const client = new MeshClient(config, { epochKeyStore: identity.epochKeyStore });
  const server = new McpServer({ name: "mesh", version: "1.0.0" }, { capabilities: { logging: {} } });
  const arrivals = new Set<() => void>();

  client.on("message", (m) => {
    // On disk before the broker is acked (the client acks after this listener, batched).
    inbox.add(m);
    for (const wake of arrivals) wake();
    void server.server
      .sendLoggingMessage({ level: "info", logger: "mesh", data: { type: "message", ...shown(m) } })
      .catch(() => undefined);
  });
  client.on("status", (s) => {
    void server.server
      .sendLoggingMessage({
        level: "info",
        logger: "mesh",
        data: { type: "status", member_id: s.memberId, status: s.status, text: s.text, at: s.at },
      })
      .catch(() => undefined);
  });
  client.on("reconnecting", (r) =>
    io.err(`mesh mcp: no connection to ${config.brokerUrl}; retrying in ${(r.delayMs / 1000).toFixed(1)} s`),
  );
  let fatal: unknown;
  client.once("fatal", (e) => {
    fatal = e;
    io.err(`mesh mcp: ${String((asFailure(e) as Error).message)}`);
  });

  const connected = () => waitConnected(client, config, () => fatal);
  registerTools(server, { client, config, inbox, connected, arrivals });
  registerWhoami(server, identity);

  const transport = new StdioServerTransport();
  // The SDK's transport does not end when its input does: an assistant that went away (or closed its end
  // first, as the SDK's own client does) must not leave this peer connected and "receiving" for ever.
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once("end", resolve);
  });
  await server.connect(transport);
  void client.connect().catch(() => undefined);
  io.err(`mesh mcp: serving mesh ${config.meshSlug} on stdio`);
  await Promise.race([closed, io.interrupted]);
  await client.close();
  await identity.end();
  await server.close().catch(() => undefined);
  return EXIT.ok;
}

/** Resolves once the client is connected; fails after CONNECT_WAIT_MS or when the broker refused for good. */
async function waitConnected(client: MeshClient, config: TMeshConfig, fatal: () => unknown): Promise<void> {
  const deadline = Date.now() + CONNECT_WAIT_MS;
  while (!client.connected) {
    if (fatal()) throw fatal();
    if (Date.now() > deadline)
      throw new CliFailure(`no connection to the broker at ${config.brokerUrl}`, "UNREACHABLE");
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface ToolDeps {
  client: MeshClient;
  config: TMeshConfig;
  inbox: Inbox;
  connected: () => Promise<void>;
  arrivals: Set<() => void>;
}

function registerTools(server: McpServer, d: ToolDeps): void {
  server.registerTool(
    "list_peers",
    {
      title: "List peers",
      description:
        "The members of this mesh: name, member id, role, online, can_receive (a message reaches it now; online without it: it only sends), status and status text.",
      inputSchema: {},
    },
    async () => {
      try {
        await d.connected();
        const peers = await d.client.peers();
        // name: the person (its account) when known, else the peer's own name; device: the peer's own name.
        return ok(
          peers.map((p) => ({
            name: p.userName ?? p.displayName,
            device: p.displayName,
            member_id: p.memberId,
            role: p.role,
            online: p.online,
            can_receive: p.receiving,
            status: p.status,
            status_text: p.statusText,
            groups: p.groups,
            you: p.memberId === d.config.memberId,
          })),
        );
      } catch (error) {
        return failed(error);
      }
    },
  );

  server.registerTool(
    "send_message",
    {
      title: "Send a message",
      description:
        "Send an end-to-end encrypted message to the whole mesh, or to the peers named in `to` (display names or member ids).",
      inputSchema: {
        text: z.string().min(1).max(16_000).describe("The message"),
        to: z
          .array(z.string().min(1).max(200))
          .max(100)
          .optional()
          .describe("Peers by name or member id, or @group; omit for the whole mesh"),
        priority: z.enum(MESSAGE_PRIORITIES).optional().describe("low, normal (default), high or urgent"),
      },
    },
    async ({ text, to, priority }) => {
      try {
        await d.connected();
        const recipients = to?.length ? resolvePeers(to, await d.client.peers(), d.config.memberId) : undefined;
        const receipt = await d.client.send(text, { to: recipients, priority: priority ?? "normal" });
        return ok({ message_id: receipt.messageId, recipients: receipt.recipients });
      } catch (error) {
        return failed(error);
      }
    },
  );

  server.registerTool(
    "read_messages",
    {
      title: "Read messages",
      description:
        "Take the unread messages (oldest first); they are marked read. With `wait`, waits up to that many seconds for one when there is none.",
      inputSchema: {
        limit: z.number().int().min(1).max(100).optional().describe("At most this many (default 20)"),
        wait: z
          .number()
          .int()
          .min(0)
          .max(READ_WAIT_MAX_SECONDS)
          .optional()
          .describe("Seconds to wait for a message when none is unread"),
      },
    },
    async ({ limit, wait }) => {
      let taken = d.inbox.take(limit ?? 20);
      if (taken.length === 0 && wait) {
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            d.arrivals.delete(done);
            resolve();
          };
          const timer = setTimeout(done, wait * 1000);
          d.arrivals.add(done);
        });
        taken = d.inbox.take(limit ?? 20);
      }
      return ok({ messages: taken.map(shown), dropped: d.inbox.dropped });
    },
  );

  server.registerTool(
    "set_status",
    {
      title: "Set your status",
      description: "Set this peer's status (e.g. working, idle, dnd) and an optional text; the other peers see it.",
      inputSchema: {
        status: z
          .string()
          .regex(/^[a-z0-9][a-z0-9_-]{0,31}$/)
          .describe("1-32 characters a-z 0-9 _ -"),
        text: z.string().max(200).optional(),
      },
    },
    async ({ status, text }) => {
      try {
        await d.connected();
        const set = await d.client.setStatus(status, text ?? null);
        return ok({ status: set.status, text: set.text, at: set.at });
      } catch (error) {
        return failed(error);
      }
    },
  );
}

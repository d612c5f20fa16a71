import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { MeshClient, type History, type ReceivedMessage, type TMeshConfig } from "../../client";
import { Inbox, type InboxMessage } from "../../client/inbox";
import { MAX_STATUS_IDS, MESSAGE_PRIORITIES, type TPeerInfo } from "../../protocol/frames";
import { CliFailure, EXIT, parseCommandArgs, UsageError, type CliIo } from "../io";
import { historyOf, keepHistory, messageReports, recordSent } from "../local-history";
import { asFailure, resolvePeers } from "../session";
import { channelEvent, CHANNEL_METHOD, instructionsFor } from "./mcp-channel";
import { IDENTITY_OPTIONS, mcpIdentity } from "./mcp-identity";
import { registerWhoami } from "./mcp-whoami";
import { verificationAmong, type VerificationMark } from "../../protocol/safety-number";
import { refuseChangedRecipients, verificationMarks } from "../verification";

/** How often `mesh mcp` looks for messages its session's hooks showed (their read receipts go from it). */
const HOOK_RECEIPT_INTERVAL_MS = 1_000;
/** How long a tool call waits for the broker connection before it answers with an error. */
const CONNECT_WAIT_MS = 15_000;
/** The longest `read_messages` long-poll, in seconds. */
export const READ_WAIT_MAX_SECONDS = 60;
/** The longest wait of `send_message` and `reply` for an answer, in seconds. */
export const REPLY_WAIT_MAX_SECONDS = 120;
/** Tool calls waiting for a reply at once (each holds a timer and a slot). */
const MAX_REPLY_WAITERS = 32;
/** A message id as the broker writes them (a lower-case UUID). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Messages received this session kept in memory for `reply` and for replies that came before their waiter. */
const RECENT_MAX = 1_000;

/** What the SDK hands a tool handler besides its arguments (progress token, notifications). */
type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;
type ToolResult = { content: { type: "text"; text: string }[]; isError?: boolean };
const ok = (value: unknown): ToolResult => ({ content: [{ type: "text", text: JSON.stringify(value) }] });
const failed = (error: unknown): ToolResult => {
  const f = asFailure(error);
  return { content: [{ type: "text", text: f instanceof Error ? f.message : String(f) }], isError: true };
};

/** A received message as the tools and notifications show it (no keys, no ciphertext). */
function shown(m: InboxMessage) {
  return {
    id: m.messageId,
    from: m.fromName ?? m.from,
    from_member_id: m.from,
    direct: m.direct,
    priority: m.priority,
    text: m.text,
    created_at: m.createdAt,
    reply_to: m.replyTo ?? null,
    ...(m.shownAt ? { shown_as_channel_event: true } : {}),
  };
}

/** A small map that forgets its oldest entries past `max`. */
class Recent<V> extends Map<string, V> {
  constructor(private readonly max: number) {
    super();
  }
  override set(key: string, value: V): this {
    super.delete(key);
    super.set(key, value);
    if (this.size > this.max) this.delete(this.keys().next().value as string);
    return this;
  }
}

/**
 * `mesh mcp [--mesh <slug>] [--channel on|off]`: an MCP server over stdio for one joined mesh (docs/cli.md,
 * "Use with Claude Code"). One broker connection with the client library's reconnects, showing texts of
 * live members only (a removed member's queued messages are dropped). Every message received goes to the
 * local inbox and history first; then, with the channel on (default), it is pushed into the model as a
 * `notifications/claude/channel` event (Claude Code's channel contract), which counts as read: a read
 * receipt goes to its sender. It is also sent as a logging notification for other clients. A message that
 * answers one a tool call is waiting for (`wait_for_reply_s`) is handed to that call instead.
 */
export async function mcpCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { ...IDENTITY_OPTIONS, channel: { type: "string" } });
  if (positionals.length > 0) throw new UsageError("no arguments expected");
  if (values.channel !== undefined && values.channel !== "on" && values.channel !== "off")
    throw new UsageError("--channel is on or off");
  const channel = values.channel !== "off";
  // The machine's member, or with --session the member of this assistant session (mcp-identity.ts).
  const identity = await mcpIdentity(io, values);
  const { config, inbox } = identity;
  const history = historyOf(io, config);
  const client = new MeshClient(config, { epochKeyStore: identity.epochKeyStore, senderGate: true });
  const server = new McpServer(
    { name: "mesh", version: "1.0.0" },
    {
      capabilities: { logging: {}, ...(channel ? { experimental: { "claude/channel": {} } } : {}) },
      instructions: instructionsFor(config, channel),
    },
  );
  const session = new Session(client, config, inbox, history, server, channel, (line) => io.err(`mesh mcp: ${line}`));

  client.on("reconnecting", (r) =>
    io.err(`mesh mcp: no connection to ${config.brokerUrl}; retrying in ${(r.delayMs / 1000).toFixed(1)} s`),
  );
  client.on("rejected", (r) => io.err(`mesh mcp: a message from ${r.from} was dropped: not a member of the mesh`));
  let fatal: unknown;
  client.once("fatal", (e) => {
    fatal = e;
    io.err(`mesh mcp: ${String((asFailure(e) as Error).message)}`);
  });

  registerTools(
    server,
    session,
    () => waitConnected(client, config, () => fatal),
    () => verificationMarks(io, config.meshId),
  );
  registerWhoami(server, identity);

  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    // The client went away (it closed our standard input): the SDK's transport does not notice by itself.
    process.stdin.once("end", resolve);
  });
  await server.connect(transport);
  void client.connect().catch(() => undefined);
  io.err(`mesh mcp: serving mesh ${config.meshSlug} on stdio (channel ${channel ? "on" : "off"})`);
  await Promise.race([closed, io.interrupted]);
  session.close();
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

interface ReplyWaiter {
  /** Who may answer: the recipients of a direct message; undefined for a whole-mesh one (any member). */
  from: Set<string> | undefined;
  resolve: (m: ReceivedMessage | null) => void;
}

/** What arrives, and who waits for it: the inbox, the history, the channel and the tool calls waiting. */
class Session {
  /** Wakes `read_messages` calls waiting for a message. */
  readonly arrivals = new Set<() => void>();
  /** Messages received this session, by id (`reply` finds its original here first). */
  readonly recent = new Recent<ReceivedMessage>(RECENT_MAX);
  /** Replies received this session, by the id they answer (a reply that came before its waiter). */
  private readonly replies = new Recent<ReceivedMessage>(RECENT_MAX);
  private readonly waiters = new Map<string, ReplyWaiter>();
  /** Ids the session's hooks showed that got their read receipt (from the inbox's shown log). */
  private readonly hookReceipted = new Recent<true>(RECENT_MAX);
  private readonly hookWatch: NodeJS.Timeout;
  /** Whether `message_status` has read the member list once (names come from the directory after). */
  peersRead = false;

  constructor(
    readonly client: MeshClient,
    readonly config: TMeshConfig,
    readonly inbox: Inbox,
    readonly history: History,
    private readonly server: McpServer,
    private readonly channel: boolean,
    readonly warn: (line: string) => void,
  ) {
    keepHistory(client, history, warn);
    client.on("message", (m) => this.arrived(m));
    // The session's inject hooks (other processes, no broker connection) log what they showed the model:
    // their read receipts go from here.
    for (const shown of inbox.shown()) this.hookReceipted.set(shown.id, true);
    this.hookWatch = setInterval(() => this.receiptHookShown(), HOOK_RECEIPT_INTERVAL_MS);
    this.hookWatch.unref();
    client.on("status", (s) => {
      void server.server
        .sendLoggingMessage({
          level: "info",
          logger: "mesh",
          data: { type: "status", member_id: s.memberId, status: s.status, text: s.text, at: s.at },
        })
        .catch(() => undefined);
    });
  }

  private arrived(m: ReceivedMessage): void {
    // Shown in an earlier session already (its ack was lost, so the broker handed it out again).
    if (this.history.get(m.messageId)?.readAt) return;
    this.recent.set(m.messageId, m);
    if (m.replyTo) this.replies.set(m.replyTo, m);
    const waiter = m.replyTo ? this.waiters.get(m.replyTo) : undefined;
    const forWaiter = waiter && (!waiter.from || waiter.from.has(m.from));
    const shownAt = this.channel && !forWaiter ? new Date().toISOString() : undefined;
    // On disk before the broker is acked (the client acks after this listener, batched).
    this.inbox.add(m, shownAt);
    if (forWaiter && waiter && m.replyTo) {
      this.waiters.delete(m.replyTo);
      waiter.resolve(m);
    } else if (shownAt) {
      void this.server.server
        .notification({ method: CHANNEL_METHOD, params: channelEvent(m, this.config) } as never)
        .catch(() => undefined);
      this.markRead([m]);
    }
    for (const wake of this.arrivals) wake();
    void this.server.server
      .sendLoggingMessage({ level: "info", logger: "mesh", data: { type: "message", ...shown(m) } })
      .catch(() => undefined);
  }

  /** The model has been shown these: read receipts to their senders, and the history notes it. */
  markRead(messages: readonly ReceivedMessage[]): void {
    if (messages.length === 0) return;
    this.client.markRead(messages.map((m) => ({ from: m.from, messageId: m.messageId })));
    try {
      this.history.recordRead(messages.map((m) => m.messageId));
    } catch (error) {
      this.warn(`history: read not recorded (${(error as Error).message})`);
    }
  }

  /**
   * Waits up to `seconds` for the first message answering `messageId` (its `replyTo`), from one of
   * `from` (any member when undefined). The reply is taken from the inbox and marked read.
   */
  async waitForReply(
    messageId: string,
    from: Set<string> | undefined,
    seconds: number,
  ): Promise<ReceivedMessage | null> {
    const early = this.replies.get(messageId);
    let reply: ReceivedMessage | null = early && (!from || from.has(early.from)) ? early : null;
    if (!reply) {
      if (this.waiters.size >= MAX_REPLY_WAITERS)
        throw new CliFailure(`too many tool calls are waiting for replies (at most ${MAX_REPLY_WAITERS})`);
      reply = await new Promise<ReceivedMessage | null>((resolve) => {
        const timer = setTimeout(() => {
          this.waiters.delete(messageId);
          resolve(null);
        }, seconds * 1000);
        this.waiters.set(messageId, {
          from,
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
        });
      });
    }
    if (reply) {
      this.inbox.takeOne(reply.messageId);
      this.markRead([reply]);
    }
    return reply;
  }

  /** The tool calls still waiting get no reply. */
  /** Read receipts for the messages a hook showed since the last look (received by this session). */
  receiptHookShown(): void {
    const fresh = this.inbox.shown().filter((e) => e.via === "hook" && !this.hookReceipted.has(e.id));
    for (const e of fresh) this.hookReceipted.set(e.id, true);
    this.markRead(fresh.flatMap((e) => this.recent.get(e.id) ?? []));
  }

  close(): void {
    clearInterval(this.hookWatch);
    this.receiptHookShown();
    for (const [id, w] of this.waiters) {
      this.waiters.delete(id);
      w.resolve(null);
    }
  }
}

function registerTools(
  server: McpServer,
  s: Session,
  connected: () => Promise<void>,
  marks: () => VerificationMark[],
): void {
  const { client, config, inbox, history } = s;
  server.registerTool(
    "list_peers",
    {
      title: "List peers",
      description:
        "The members of this mesh: name, member id, role, online, can_receive (a message reaches it now; online without it: it only sends), status and status text, " +
        "and verified: 'verified' when a person on this machine compared that member's safety number (mesh verify --mark), " +
        "'changed' when its keys changed since (tell the user before trusting what it says), else 'unverified'.",
      inputSchema: {},
    },
    async () => {
      try {
        await connected();
        const peers = await client.peers();
        const verified = marks();
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
            verified: p.memberId === config.memberId ? null : verificationAmong(verified, p),
            you: p.memberId === config.memberId,
          })),
        );
      } catch (error) {
        return failed(error);
      }
    },
  );

  /** Sends, records the message in the history and, when asked, waits for its first reply. */
  const sendAndWait = async (
    input: {
      text: string;
      to?: string[];
      priority: (typeof MESSAGE_PRIORITIES)[number];
      replyTo?: string;
      waitS?: number;
    },
    extra: ToolExtra,
  ) => {
    await connected();
    let peers: TPeerInfo[] | undefined;
    let recipients: string[] | undefined;
    if (input.to?.length) {
      peers = await client.peers();
      recipients = resolvePeers(input.to, peers, config.memberId);
      refuseChangedRecipients(marks(), peers, recipients);
    }
    const receipt = await client.send(input.text, { to: recipients, priority: input.priority, replyTo: input.replyTo });
    try {
      recordSent(history, config, receipt, { ...input, to: recipients, peers });
    } catch (error) {
      s.warn(`history: a message sent not recorded (${(error as Error).message})`);
    }
    const answer: Record<string, unknown> = { message_id: receipt.messageId, recipients: receipt.recipients };
    if (input.waitS) {
      const started = Date.now();
      // A client that asked for progress (a progressToken) hears every 10 s that the call is still waiting,
      // so one that resets its timeout on progress does not give up on a long wait.
      const token = extra._meta?.progressToken;
      const ticker =
        token === undefined
          ? undefined
          : setInterval(() => {
              const waited = Math.round((Date.now() - started) / 1000);
              void extra
                .sendNotification({
                  method: "notifications/progress",
                  params: {
                    progressToken: token,
                    progress: waited,
                    total: input.waitS,
                    message: "waiting for a reply",
                  },
                })
                .catch(() => undefined);
            }, 10_000);
      const reply = await s
        .waitForReply(receipt.messageId, recipients ? new Set(recipients) : undefined, input.waitS)
        .finally(() => clearInterval(ticker));
      answer.reply = reply ? shown(reply) : null;
      answer.waited_s = Math.round((Date.now() - started) / 100) / 10;
    }
    return answer;
  };

  const waitInput = z
    .number()
    .int()
    .min(0)
    .max(REPLY_WAIT_MAX_SECONDS)
    .optional()
    .describe(`Seconds (up to ${REPLY_WAIT_MAX_SECONDS}) to wait for the first reply to this message, returned here`);
  const messageId = z
    .string()
    .regex(UUID)
    .describe("A message id (as in message_id of a channel event or read_messages)");

  server.registerTool(
    "send_message",
    {
      title: "Send a message",
      description:
        "Send an end-to-end encrypted message to the whole mesh, or to the peers named in `to` (display names or member ids). " +
        "With `reply_to`, it answers that message. With `wait_for_reply_s`, the call waits for the first reply and returns it.",
      inputSchema: {
        text: z.string().min(1).max(16_000).describe("The message"),
        to: z
          .array(z.string().min(1).max(200))
          .max(100)
          .optional()
          .describe("Peers by name or member id, or @group; omit for the whole mesh"),
        priority: z.enum(MESSAGE_PRIORITIES).optional().describe("low, normal (default), high or urgent"),
        reply_to: messageId.optional(),
        wait_for_reply_s: waitInput,
      },
    },
    async ({ text, to, priority, reply_to, wait_for_reply_s }, extra) => {
      try {
        return ok(
          await sendAndWait(
            { text, to, priority: priority ?? "normal", replyTo: reply_to, waitS: wait_for_reply_s },
            extra,
          ),
        );
      } catch (error) {
        return failed(error);
      }
    },
  );

  server.registerTool(
    "reply",
    {
      title: "Reply to a message",
      description:
        "Answer a message you received (its message_id), to its sender only. With `wait_for_reply_s`, waits for their answer to yours.",
      inputSchema: {
        message_id: messageId,
        text: z.string().min(1).max(16_000).describe("Your answer"),
        priority: z.enum(MESSAGE_PRIORITIES).optional().describe("low, normal (default), high or urgent"),
        wait_for_reply_s: waitInput,
      },
    },
    async ({ message_id, text, priority, wait_for_reply_s }, extra) => {
      try {
        const original =
          s.recent.get(message_id) ?? inbox.list().find((m) => m.messageId === message_id) ?? history.get(message_id);
        const from =
          original && ("messageId" in original ? original.from : original.dir === "in" ? original.from : null);
        if (!from)
          throw new CliFailure(`no message ${message_id} was received here (reply answers a message you received)`);
        // Answering it means it was read.
        if (s.recent.has(message_id)) s.markRead([s.recent.get(message_id)!]);
        return ok(
          await sendAndWait(
            {
              text,
              to: [from],
              priority: priority ?? "normal",
              replyTo: message_id,
              waitS: wait_for_reply_s,
            },
            extra,
          ),
        );
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
        "Take the unread messages (oldest first); they are marked read. With `wait`, waits up to that many seconds for one when there is none. " +
        "Messages already pushed to you as channel events are marked shown_as_channel_event.",
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
      let taken = inbox.take(limit ?? 20);
      if (taken.length === 0 && wait) {
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            s.arrivals.delete(done);
            resolve();
          };
          const timer = setTimeout(done, wait * 1000);
          s.arrivals.add(done);
        });
        taken = inbox.take(limit ?? 20);
      }
      s.markRead(taken.filter((m) => !m.shownAt));
      return ok({ messages: taken.map(shown), dropped: inbox.dropped });
    },
  );

  server.registerTool(
    "message_status",
    {
      title: "Status of messages you sent",
      description:
        "Per recipient, whether a message you sent is queued at the broker, sent to the recipient's device, delivered (its device has it) or read (shown to its model or person).",
      inputSchema: {
        message_ids: z
          .array(z.string().regex(UUID))
          .min(1)
          .max(MAX_STATUS_IDS)
          .describe("Ids of messages you sent (message_id)"),
      },
    },
    async ({ message_ids }) => {
      try {
        await connected();
        // Names from the client's directory (kept current by presence frames): one `peers` a session, not
        // one a call, so a model polling the status does not spend the `peers` frame budget.
        if (!s.peersRead)
          s.peersRead = await client.peers().then(
            () => true,
            () => false,
          );
        const nameOf = (id: string) => client.peer(id)?.displayName;
        return ok({ messages: await messageReports([...new Set(message_ids)], history, client, nameOf) });
      } catch (error) {
        return failed(error);
      }
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
        await connected();
        const set = await client.setStatus(status, text ?? null);
        return ok({ status: set.status, text: set.text, at: set.at });
      } catch (error) {
        return failed(error);
      }
    },
  );
}

// Who `mesh mcp` is (docs/cli.md, "One identity per session"): the machine's member of the mesh, or,
// with `--session`, the member of one assistant session, made at start and ended at exit.
import path from "node:path";
import {
  endSession,
  HookError,
  sessionConfig,
  sessionEpochKeys,
  sessionKeyOf,
  startSession,
  type SessionRecord,
  type TMeshConfig,
} from "../../client";
import type { EpochKeyStore } from "../../client/epoch-keys";
import { Inbox } from "../../client/inbox";
import { storeOf, UsageError, type CliIo } from "../io";
import { selectMesh } from "../session";

/** The options `mesh mcp` takes for its identity. */
export const IDENTITY_OPTIONS = { mesh: { type: "string" }, session: { type: "string" } } as const;

/** What `mesh mcp` runs as: the config its client connects with, its inbox, and how it ends. */
export interface McpIdentity {
  /** The member the MCP server connects as (the session's, or the machine's). */
  config: TMeshConfig;
  /** The machine's member of the mesh (the session's parent). */
  machine: TMeshConfig;
  inbox: Inbox;
  epochKeyStore: EpochKeyStore;
  /** The session, when it runs as one. */
  session?: SessionRecord;
  /** Why it runs as the machine's member although a session was asked for (the broker refused, say). */
  sessionProblem?: string;
  /** Ends the session member (at exit); nothing for the machine's member. */
  end(): Promise<void>;
}

/**
 * The session key `--session` names: `auto` takes the assistant's session id (Claude Code gives its stdio
 * MCP servers CLAUDE_CODE_SESSION_ID, the `session_id` its hooks get), else `ppid-<the assistant's pid>`.
 */
export function sessionKeyFor(value: string, io: Pick<CliIo, "env" | "ppid">): string {
  if (value !== "auto") {
    const key = sessionKeyOf(value);
    if (!key) throw new UsageError("--session takes auto or 1 to 128 of A-Z a-z 0-9 _ -");
    return key;
  }
  return sessionKeyOf(io.env.CLAUDE_CODE_SESSION_ID) ?? `ppid-${io.ppid}`;
}

/** Resolves `mesh mcp`'s identity; with `--session`, makes (or finds again) the session's member. */
export async function mcpIdentity(io: CliIo, values: { mesh?: string; session?: string }): Promise<McpIdentity> {
  const machine = selectMesh(io, values.mesh);
  const store = storeOf(io);
  const asMachine = (sessionProblem?: string): McpIdentity => ({
    config: machine,
    machine,
    inbox: new Inbox(store.home, machine.meshId),
    epochKeyStore: store.epochKeyStore(machine.meshId),
    ...(sessionProblem ? { sessionProblem } : {}),
    end: async () => {},
  });
  if (values.session === undefined) return asMachine();
  const sessionKey = sessionKeyFor(values.session, io);
  const project = path.resolve(io.env.CLAUDE_PROJECT_DIR || io.cwd);
  let record: SessionRecord;
  try {
    ({ record } = await startSession(machine, store.home, {
      sessionKey,
      project,
      assistantPid: io.ppid,
      serverPid: process.pid,
    }));
  } catch (error) {
    if (!(error instanceof HookError)) throw error;
    // Better one shared identity than none: the MCP server still serves, as the machine's member.
    const why = `no session member (${error.code}: ${error.message}); serving as this machine's member`;
    io.err(`mesh mcp: ${why}`);
    return asMachine(why);
  }
  const inbox = new Inbox(store.home, record.memberId);
  return {
    config: sessionConfig(machine, record),
    machine,
    inbox,
    epochKeyStore: sessionEpochKeys(store, machine.meshId, sessionKey),
    session: record,
    end: async () => {
      try {
        await endSession(machine, store.home, record);
        inbox.remove();
      } catch (error) {
        // Unreachable broker: the member ends by itself once idle (SESSION_IDLE_MS); its files stay for a resume.
        io.err(`mesh mcp: the session member stays until it expires: ${(error as Error).message}`);
      }
    },
  };
}

/** The identity as `whoami` shows it (the MCP tool and `mesh whoami`). */
export function identityView(machine: TMeshConfig, session?: SessionRecord) {
  return {
    mesh: machine.meshSlug,
    mesh_id: machine.meshId,
    member_id: session?.memberId ?? machine.memberId,
    name: session?.displayName ?? machine.displayName,
    role: session?.role ?? machine.role,
    session: session ? { key: session.sessionKey, project: session.project, since: session.createdAt } : null,
    parent: session ? { member_id: machine.memberId, name: machine.displayName } : null,
  };
}

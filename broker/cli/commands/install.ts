import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { meshCommand } from "../entry";
import { CliFailure, EXIT, parseCommandArgs, UsageError, type CliIo } from "../io";
import { selectMesh } from "../session";

// `mesh install claude-code` / `mesh uninstall claude-code` (docs/cli.md, "Use the mesh from a coding
// assistant"): registers `mesh mcp --session auto` as an MCP server (each assistant session its own
// member), the status hooks, and the hooks that put unread messages into the session (`mesh hook
// inject`, the fallback where channels are off) in the assistant's settings, keeping every other
// setting, with a backup of each file changed; idempotent (our entries are found by their command and
// replaced, never doubled).

/** The hook events and the status each sets. */
export const HOOK_STATUSES = { UserPromptSubmit: "working", Stop: "idle", SessionEnd: "offline" } as const;
/**
 * The events whose hooks inject unread messages: before the model reads a prompt, and after each tool
 * call (so a long turn sees messages too); both may answer with `additionalContext` (hooks reference).
 */
export const INJECT_HOOK_EVENTS = ["UserPromptSubmit", "PostToolUse"] as const;
/** Seconds Claude Code gives our hooks: the inject hook reads local files only. */
const INJECT_TIMEOUT_S = 5;
/** The MCP server's name in the assistant's configuration. */
export const MCP_SERVER_NAME = "mesh";

type Json = Record<string, unknown>;
interface HookEntry {
  matcher?: string;
  hooks?: { type?: string; command?: string; timeout?: number }[];
}

/** Where the settings (hooks) and the MCP servers of the assistant are, for a scope. */
export function claudeFiles(scope: "user" | "project", env: Readonly<Record<string, string | undefined>>, cwd: string) {
  const home = env.HOME ?? os.homedir();
  if (scope === "project")
    return { settings: path.join(cwd, ".claude", "settings.json"), mcp: path.join(cwd, ".mcp.json") };
  return {
    settings: path.join(env.CLAUDE_CONFIG_DIR ?? path.join(home, ".claude"), "settings.json"),
    mcp: path.join(home, ".claude.json"),
  };
}

const quote = (s: string) => (/^[A-Za-z0-9_./:@=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
/** Our hook commands say `hook set-status` or `hook inject` through this script: that is how ours are told apart. */
const isOurs = (command: string | undefined, script: string) =>
  typeof command === "string" &&
  command.includes(script) &&
  (command.includes(" hook set-status ") || command.includes(" hook inject "));

function readJson(file: string): Json {
  if (!existsSync(file)) return {};
  const text = readFileSync(file, "utf8");
  if (text.trim() === "") return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Json;
  } catch {
    // refused below
  }
  throw new CliFailure(`${file} is not a JSON object; fix or move it, nothing was changed`);
}

/** Settings without our hooks (other hooks, other events and other settings kept as they are). */
function withoutOurHooks(settings: Json, script: string): Json {
  const hooks = { ...((settings.hooks as Record<string, HookEntry[]> | undefined) ?? {}) };
  for (const [event, entries] of Object.entries(hooks)) {
    if (!Array.isArray(entries)) continue;
    const kept = entries
      .map((e) => ({ ...e, hooks: (e.hooks ?? []).filter((h) => !isOurs(h.command, script)) }))
      .filter((e, i) => e.hooks.length > 0 || (entries[i]?.hooks ?? []).length === 0);
    if (kept.length > 0) hooks[event] = kept;
    else delete hooks[event];
  }
  const out = { ...settings, hooks };
  if (Object.keys(hooks).length === 0) delete (out as Json).hooks;
  return out;
}

function withOurHooks(
  settings: Json,
  command: string[],
  mesh: { slug: string; id: string },
  home: string | undefined,
): Json {
  const base = withoutOurHooks(settings, command[1] ?? "");
  const hooks = { ...((base.hooks as Record<string, HookEntry[]> | undefined) ?? {}) };
  // The hooks find the config directory the MCP server is given (its env): a MESH_HOME set at install.
  const mesh_ = `${home ? `MESH_HOME=${quote(home)} ` : ""}${command.map(quote).join(" ")}`;
  const add = (event: string, line: string, timeout: number) =>
    (hooks[event] = [...(hooks[event] ?? []), { hooks: [{ type: "command", command: line, timeout }] }]);
  // $PPID: the assistant itself, so every hook of one session names the same process (and finds the
  // session's member after /clear gave the hooks a new session id); --hook-input: the session's member.
  for (const [event, status] of Object.entries(HOOK_STATUSES))
    add(event, `${mesh_} hook set-status ${status} --mesh ${quote(mesh.slug)} --pid $PPID --hook-input`, 10);
  for (const event of INJECT_HOOK_EVENTS)
    add(event, `${mesh_} hook inject --mesh ${quote(mesh.id)} --pid $PPID`, INJECT_TIMEOUT_S);
  return { ...base, hooks };
}

function withMcp(config: Json, command: string[], mesh: string, home: string | undefined, channels: boolean): Json {
  const servers = { ...((config.mcpServers as Json | undefined) ?? {}) };
  servers[MCP_SERVER_NAME] = {
    command: command[0],
    // --session auto: every session of the assistant is a peer of its own (docs/cli.md, "One identity per session").
    // --channel: Claude Code drops channel events unless started with the development-channels flag, and a
    // pushed message counts as read and is left out by the hooks; so it is on only when asked for (--channels).
    args: [...command.slice(1), "mcp", "--mesh", mesh, "--session", "auto", "--channel", channels ? "on" : "off"],
    ...(home ? { env: { MESH_HOME: home } } : {}),
  };
  return { ...config, mcpServers: servers };
}

function withoutMcp(config: Json): Json {
  const servers = { ...((config.mcpServers as Json | undefined) ?? {}) };
  delete servers[MCP_SERVER_NAME];
  const out: Json = { ...config, mcpServers: servers };
  if (Object.keys(servers).length === 0) delete out.mcpServers;
  return out;
}

/** Writes `next` when it differs: a backup of the old file first, then an atomic replace. Returns what happened. */
function writeChanged(file: string, before: Json, next: Json, dryRun: boolean, io: CliIo): "unchanged" | "changed" {
  const was = JSON.stringify(before, null, 2);
  const now = JSON.stringify(next, null, 2);
  if (was === now) return "unchanged";
  if (dryRun) {
    io.out(`--- ${file}`);
    io.out(now);
    return "changed";
  }
  mkdirSync(path.dirname(file), { recursive: true });
  if (existsSync(file)) copyFileSync(file, `${file}.bak-${new Date().toISOString().replace(/[:.]/g, "-")}`);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${now}\n`, { mode: 0o600 });
  renameSync(tmp, file);
  return "changed";
}

function target(args: string[], io: CliIo, verb: "install" | "uninstall") {
  const { values, positionals } = parseCommandArgs(args, {
    mesh: { type: "string" },
    scope: { type: "string" },
    "dry-run": { type: "boolean" },
    channels: { type: "boolean" },
    settings: { type: "string" },
    "mcp-config": { type: "string" },
  });
  if (positionals[0] !== "claude-code" || positionals.length !== 1)
    throw new UsageError(`${verb} what? mesh ${verb} claude-code`);
  const scope = values.scope ?? "user";
  if (scope !== "user" && scope !== "project") throw new UsageError("--scope is user or project");
  const files = claudeFiles(scope, io.env, io.cwd);
  return {
    settings: values.settings ? path.resolve(io.cwd, values.settings) : files.settings,
    mcp: values["mcp-config"] ? path.resolve(io.cwd, values["mcp-config"]) : files.mcp,
    dryRun: values["dry-run"] === true,
    channels: values.channels === true,
    mesh: values.mesh,
  };
}

/** `mesh install claude-code [--scope user|project] [--mesh <slug>] [--channels] [--dry-run]`. */
export async function installCommand(args: string[], io: CliIo): Promise<number> {
  const t = target(args, io, "install");
  const config = selectMesh(io, t.mesh);
  const command = meshCommand();
  const settings = readJson(t.settings);
  const mcp = readJson(t.mcp);
  const home = io.env.MESH_HOME ? path.resolve(io.cwd, io.env.MESH_HOME) : undefined;
  const ours = withOurHooks(settings, command, { slug: config.meshSlug, id: config.meshId }, home);
  const a = writeChanged(t.settings, settings, ours, t.dryRun, io);
  const b = writeChanged(t.mcp, mcp, withMcp(mcp, command, config.meshSlug, home, t.channels), t.dryRun, io);
  const verb = t.dryRun ? "would change" : "changed";
  io.out(
    a === "unchanged" && b === "unchanged"
      ? "Already installed; nothing changed."
      : `Installed for mesh ${config.meshSlug}: ${verb} ${[a === "changed" ? t.settings : "", b === "changed" ? t.mcp : ""].filter(Boolean).join(" and ")}.`,
  );
  if (a === "changed" || b === "changed")
    io.out(
      t.channels
        ? `Messages arrive as channel events: start Claude Code with  claude --dangerously-load-development-channels server:${MCP_SERVER_NAME}  (channels need a claude.ai login).`
        : "Messages arrive through the hooks, with each prompt and after each tool call (mesh install claude-code --channels pushes them as channel events instead).",
    );
  return EXIT.ok;
}

/** `mesh uninstall claude-code [--scope user|project] [--dry-run]`: removes our hooks and server only. */
export async function uninstallCommand(args: string[], io: CliIo): Promise<number> {
  const t = target(args, io, "uninstall");
  const script = meshCommand()[1] ?? "";
  const settings = readJson(t.settings);
  const mcp = readJson(t.mcp);
  const a = existsSync(t.settings)
    ? writeChanged(t.settings, settings, withoutOurHooks(settings, script), t.dryRun, io)
    : "unchanged";
  const b = existsSync(t.mcp) ? writeChanged(t.mcp, mcp, withoutMcp(mcp), t.dryRun, io) : "unchanged";
  io.out(
    a === "unchanged" && b === "unchanged"
      ? "Not installed; nothing changed."
      : `Uninstalled: ${t.dryRun ? "would change" : "changed"} ${[a === "changed" ? t.settings : "", b === "changed" ? t.mcp : ""].filter(Boolean).join(" and ")}.`,
  );
  return EXIT.ok;
}

import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { meshCommand } from "../entry";
import { CliFailure, EXIT, parseCommandArgs, UsageError, type CliIo } from "../io";
import { selectMesh } from "../session";

// `mesh install claude-code` / `mesh uninstall claude-code` (docs/cli.md, "Use the mesh from a coding
// assistant"): registers `mesh mcp` as an MCP server and the status hooks in the assistant's settings,
// keeping every other setting, with a backup of each file changed; idempotent (our entries are found
// by their command and replaced, never doubled).

/** The hook events and the status each sets. */
export const HOOK_STATUSES = { UserPromptSubmit: "working", Stop: "idle", SessionEnd: "offline" } as const;
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
/** Our hook commands say `hook set-status` through this script: that is how ours are told apart. */
const isOurs = (command: string | undefined, script: string) =>
  typeof command === "string" && command.includes(script) && command.includes(" hook set-status ");

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

function withOurHooks(settings: Json, command: string[], mesh: string): Json {
  const base = withoutOurHooks(settings, command[1] ?? "");
  const hooks = { ...((base.hooks as Record<string, HookEntry[]> | undefined) ?? {}) };
  for (const [event, status] of Object.entries(HOOK_STATUSES)) {
    // $PPID: the assistant itself, so every hook of one session names the same process.
    const line = `${command.map(quote).join(" ")} hook set-status ${status} --mesh ${quote(mesh)} --pid $PPID`;
    hooks[event] = [...(hooks[event] ?? []), { hooks: [{ type: "command", command: line, timeout: 10 }] }];
  }
  return { ...base, hooks };
}

function withMcp(config: Json, command: string[], mesh: string, home: string | undefined): Json {
  const servers = { ...((config.mcpServers as Json | undefined) ?? {}) };
  servers[MCP_SERVER_NAME] = {
    command: command[0],
    args: [...command.slice(1), "mcp", "--mesh", mesh],
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
    mesh: values.mesh,
  };
}

/** `mesh install claude-code [--scope user|project] [--mesh <slug>] [--dry-run]`. */
export async function installCommand(args: string[], io: CliIo): Promise<number> {
  const t = target(args, io, "install");
  const config = selectMesh(io, t.mesh);
  const command = meshCommand();
  const settings = readJson(t.settings);
  const mcp = readJson(t.mcp);
  const a = writeChanged(t.settings, settings, withOurHooks(settings, command, config.meshSlug), t.dryRun, io);
  const b = writeChanged(t.mcp, mcp, withMcp(mcp, command, config.meshSlug, io.env.MESH_HOME), t.dryRun, io);
  const verb = t.dryRun ? "would change" : "changed";
  io.out(
    a === "unchanged" && b === "unchanged"
      ? "Already installed; nothing changed."
      : `Installed for mesh ${config.meshSlug}: ${verb} ${[a === "changed" ? t.settings : "", b === "changed" ? t.mcp : ""].filter(Boolean).join(" and ")}.`,
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

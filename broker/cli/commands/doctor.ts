import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { brokerHttpUrl, meshKeysOf } from "../../client";
import { EXIT, parseCommandArgs, storeOf, UsageError, type CliIo } from "../io";
import { claudeFiles, MCP_SERVER_NAME } from "./install";

type Check = { ok: boolean; warn?: boolean; what: string };

/** Files and folders of MESH_HOME that are not private (group or others may read them). */
function looseModes(home: string): string[] {
  const loose: string[] = [];
  const visit = (p: string, depth: number) => {
    const st = statSync(p);
    if ((st.mode & 0o077) !== 0) loose.push(`${p} (${(st.mode & 0o777).toString(8)})`);
    if (st.isDirectory() && depth < 2) for (const f of readdirSync(p)) visit(path.join(p, f), depth + 1);
  };
  if (existsSync(home)) visit(home, 0);
  return loose;
}

function installed(file: string, test: (json: Record<string, unknown>) => boolean): boolean {
  try {
    return test(JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>);
  } catch {
    return false;
  }
}

/**
 * `mesh doctor [--scope user|project]`: checks the configuration folder (private modes, mesh files
 * that parse, keys that derive), each mesh's broker (/health), and the Claude Code installation.
 * Exit 1 when a check fails; warnings (not installed) do not fail.
 */
export async function doctorCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { scope: { type: "string" } });
  if (positionals.length > 0) throw new UsageError("no arguments expected");
  const scope = values.scope ?? "user";
  if (scope !== "user" && scope !== "project") throw new UsageError("--scope is user or project");
  const store = storeOf(io);
  const checks: Check[] = [];
  const loose = looseModes(store.home);
  checks.push(
    loose.length === 0
      ? { ok: true, what: `${store.home}: private (0700 folders, 0600 files)` }
      : { ok: false, what: `not private: ${loose.join(", ")} (chmod go-rwx)` },
  );
  const { meshes, broken } = store.list();
  for (const b of broken) checks.push({ ok: false, what: `${b}: not a mesh configuration` });
  if (meshes.length === 0) checks.push({ ok: true, warn: true, what: "no mesh joined (mesh join <link>)" });
  for (const m of meshes) {
    try {
      meshKeysOf(m);
      checks.push({ ok: true, what: `mesh ${m.meshSlug}: keys readable` });
    } catch {
      checks.push({ ok: false, what: `mesh ${m.meshSlug}: its keys do not derive (the file was edited?)` });
    }
    const url = brokerHttpUrl(m.brokerUrl, "/health");
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      checks.push(
        res.ok
          ? { ok: true, what: `mesh ${m.meshSlug}: broker ${url} answers` }
          : { ok: false, what: `mesh ${m.meshSlug}: broker ${url} answers ${res.status}` },
      );
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      checks.push({ ok: false, what: `mesh ${m.meshSlug}: broker ${url} unreachable (${cause})` });
    }
  }
  const files = claudeFiles(scope, io.env, io.cwd);
  const hooks = installed(files.settings, (j) => JSON.stringify(j.hooks ?? {}).includes(" hook set-status "));
  const injects = installed(files.settings, (j) => JSON.stringify(j.hooks ?? {}).includes(" hook inject "));
  const server = installed(files.mcp, (j) =>
    Boolean((j.mcpServers as Record<string, unknown> | undefined)?.[MCP_SERVER_NAME]),
  );
  const missing = [server ? "" : "no mesh server", hooks ? "" : "no status hooks", injects ? "" : "no message hooks"];
  checks.push({
    ok: true,
    warn: !(hooks && server && injects),
    what:
      hooks && server && injects
        ? `Claude Code (${scope}): server and hooks installed`
        : `Claude Code (${scope}): ${missing.filter(Boolean).join(", ")} (mesh install claude-code)`,
  });
  for (const c of checks) io.out(`${c.ok ? (c.warn ? "warn" : "ok  ") : "FAIL"}  ${c.what}`);
  return checks.every((c) => c.ok) ? EXIT.ok : EXIT.failed;
}

/**
 * The cost of `mesh hook inject` (issue 43, point 2: ≤ 50 ms median per run), the hook Claude Code runs
 * before every prompt and after every tool call. The hook's code (broker/cli/commands/hook.ts and what it
 * loads for `inject`) is bundled with esbuild into plain JavaScript, as the installable CLI ships it, and
 * run as Claude Code runs it: a new process, the hook's JSON on standard input (a PostToolUse with a
 * 20 kB tool answer), exit awaited. Printed beside `node -e ''` from the same run:
 *   - nothing to inject (the common case: an empty inbox);
 *   - three unread messages to inject (the inbox is filled again between runs, outside the timing);
 *   - with MESH_BIN set (the installed `mesh` of the CLI package), the same through it.
 * It also lists what the bundle holds, and fails if zod, ws, tweetnacl or the MCP SDK got in.
 *   npx tsx bench/hook.ts [runs=40]
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { Inbox } from "../broker/client/inbox";
import { writeSession, type SessionRecord } from "../broker/client/session-store";
import { fmt, percentile } from "./lib";

const RUNS = Number(process.argv[2] ?? 40);
const root = path.resolve(import.meta.dirname, "..");
const dir = mkdtempSync(path.join(os.tmpdir(), "mesh-hook-bench-"));

const entry = path.join(dir, "entry.ts");
writeFileSync(
  entry,
  `import { hookCommand } from ${JSON.stringify(path.join(root, "broker/cli/commands/hook.ts"))};
const io = {
  out: (l: string) => process.stdout.write(l + "\\n"),
  err: (l: string) => process.stderr.write(l + "\\n"),
  env: process.env, cwd: process.cwd(), ppid: process.ppid, interrupted: new Promise<void>(() => {}),
  readStdin: async () => { let t = ""; for await (const c of process.stdin) t += String(c); return t; },
};
process.exitCode = await hookCommand(process.argv.slice(2), io);
`,
);
const out = path.join(dir, "out");
const bundled = await build({
  entryPoints: [entry],
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  outdir: out,
  outExtension: { ".js": ".mjs" },
  metafile: true,
  logLevel: "error",
  alias: { "@": path.join(root, "src") },
});
// What `hook inject` loads: the entry chunk and the chunks it imports statically (not the lazy set-status one).
const outputs = bundled.metafile.outputs;
const entryOut = Object.keys(outputs).find((k) => outputs[k]?.entryPoint)!;
const loaded = new Set<string>();
const visit = (file: string) => {
  if (loaded.has(file)) return;
  loaded.add(file);
  for (const imp of outputs[file]?.imports ?? []) if (imp.kind === "import-statement") visit(imp.path);
};
visit(entryOut);
const injectChunk = Object.keys(outputs).find((k) =>
  Object.keys(outputs[k]?.inputs ?? {}).some((i) => i.endsWith("hook-inject.ts")),
)!;
visit(injectChunk);
const modules = [...loaded].flatMap((f) => Object.keys(outputs[f]?.inputs ?? {}));
const heavy = modules.filter((m) => /node_modules\/(zod|ws|tweetnacl|@modelcontextprotocol)\//.test(m));
const bytes = [...loaded].reduce((n, f) => n + (outputs[f]?.bytes ?? 0), 0);
console.log(`hook inject loads ${modules.length} modules, ${(bytes / 1024).toFixed(1)} KiB:`);
for (const m of modules) console.log(`  ${path.relative(root, path.resolve(m))}`);
if (heavy.length > 0) {
  console.error(`FAIL: heavy modules in the hook's graph: ${heavy.join(", ")}`);
  process.exit(1);
}

// A session with its record and inbox, as `mesh mcp --session` leaves them.
const home = path.join(dir, "home");
const session: SessionRecord = {
  version: 1,
  sessionKey: randomUUID(),
  meshId: randomUUID(),
  meshSlug: "team",
  memberId: randomUUID(),
  displayName: "api·3f9c2a1b",
  role: "member",
  parentMemberId: randomUUID(),
  parentDisplayName: "laptop",
  brokerUrl: "ws://127.0.0.1:1",
  signSeed: "a".repeat(43),
  boxSecretKey: "b".repeat(43),
  project: "/w/api",
  assistantPid: process.pid,
  serverPid: process.pid,
  createdAt: new Date().toISOString(),
};
writeSession(home, session);
const inbox = new Inbox(home, session.memberId);
const fill = () => {
  for (let i = 0; i < 3; i++)
    inbox.add({
      messageId: randomUUID(),
      seq: String(i),
      from: randomUUID(),
      fromName: "Ana",
      to: { kind: "peer", memberId: session.memberId },
      direct: true,
      priority: "normal",
      createdAt: new Date().toISOString(),
      attempt: 1,
      text: `message ${i}: the tests pass on main now`,
      sentAt: new Date().toISOString(),
    });
};
const input = JSON.stringify({
  session_id: session.sessionKey,
  transcript_path: "/w/api/t.jsonl",
  cwd: "/w/api",
  permission_mode: "default",
  hook_event_name: "PostToolUse",
  tool_name: "Bash",
  tool_input: { command: "ls" },
  tool_response: { stdout: "x".repeat(20_000) },
});

/** Wall time of one process from spawn to exit, with `stdin` written to it; its output checked. */
function once(command: string[], stdin: string, check: (out: string) => boolean): Promise<number> {
  const t0 = performance.now();
  const [exe = "", ...args] = command;
  const child = spawn(exe, args, { env: { ...process.env, MESH_HOME: home }, stdio: ["pipe", "pipe", "inherit"] });
  let text = "";
  child.stdout.on("data", (c: Buffer) => (text += c.toString()));
  child.stdin.on("error", () => {});
  child.stdin.end(stdin);
  return new Promise((resolve, reject) =>
    child.once("exit", (code) => {
      const ms = performance.now() - t0;
      if (code !== 0 || !check(text)) reject(new Error(`unexpected run: exit ${code}, output ${text.slice(0, 200)}`));
      else resolve(ms);
    }),
  );
}

/** `n` timed runs after 2 untimed ones (the file cache warm). */
async function series(command: string[], before: () => void, check: (out: string) => boolean, n: number) {
  const times: number[] = [];
  for (let i = 0; i < n + 2; i++) {
    before();
    const ms = await once(command, input, check);
    if (i >= 2) times.push(ms);
  }
  return times;
}

const injectArgs = ["inject", "--mesh", session.meshId, "--pid", String(process.pid)];
// The bundle's entry is `mesh hook`'s dispatcher: its arguments start after `hook`.
const bundle = [process.execPath, path.join(out, path.basename(entryOut)), ...injectArgs];
const empty = () => inbox.take(1_000);
const nothing = (o: string) => o === "";
const injected = (o: string) => o.includes("message 2: the tests pass");

// Interleaved, so a busy moment of the machine falls on all of them alike.
const rows: [string, number[]][] = [
  ["node -e ''", []],
  ["hook inject, nothing unread", []],
  ["hook inject, 3 messages", []],
];
const bin = process.env.MESH_BIN;
if (bin) rows.push([`${bin} hook inject, nothing unread`, []]);
const perRound = Math.max(1, Math.ceil(RUNS / 4));
for (let round = 0; round < 4; round++) {
  rows[0]![1].push(
    ...(await series(
      [process.execPath, "-e", ""],
      () => {},
      () => true,
      perRound,
    )),
  );
  rows[1]![1].push(...(await series(bundle, empty, nothing, perRound)));
  rows[2]![1].push(...(await series(bundle, () => (empty(), fill()), injected, perRound)));
  if (bin) rows[3]![1].push(...(await series([bin, "hook", ...injectArgs], empty, nothing, perRound)));
}
const base = percentile(rows[0]![1], 50);
console.log(`\n${perRound * 4} runs each, ${os.cpus().length} cores, node ${process.version}`);
for (const [name, times] of rows) {
  const p50 = percentile(times, 50);
  console.log(
    `${name.padEnd(40)} median ${fmt(p50).padStart(9)}  p90 ${fmt(percentile(times, 90)).padStart(9)}  ` +
      `${name === "node -e ''" ? "" : `(+${fmt(p50 - base)} over node -e '')`}`,
  );
}
rmSync(dir, { recursive: true, force: true });

/**
 * Cold starts of the `mesh` command (issue 43, point 6), not in CI. Builds and packs packages/mesh-cli
 * (`npm pack`, whose prepack bundles it), installs the tarball into a temporary prefix (`npm install -g
 * --prefix`), starts a broker on loopback on the bench database and joins two peers with the installed
 * command; then times new processes, one of each variant per round, round after round:
 *   node -e ''                             the floor: Node itself
 *   tsx, every command loaded              the baseline: the repository's bin as it was (main.ts imported every command)
 *   tsx: mesh --help                       the repository's bin today (broker/cli/mesh.mjs, tsx, commands loaded lazily)
 *   mesh --help, mesh --version            the installed bundle, compile cache warm (as from the second run on)
 *   mesh --help, no compile cache          NODE_DISABLE_COMPILE_CACHE=1 (Node 20, or a first run)
 *   mesh meshes (with and without cache)   a command that loads the client and reads the config, no network
 *   mesh hook set-status working           each hook command Claude Code runs (HOOKS below)
 *   mesh send <text>                       connect, authenticate, send, wait for the broker's `sent`
 *   tsx: mesh send <text>                  the same through the repository's bin
 *   the same on Node 20 (node -e '', --help, send) when /usr/bin/node is one
 * Prints the median and p90 of each, and its ratio to `node -e ''`. Goals: --help <= 150 ms, send <= 300 ms.
 *   npx tsx bench/cli-start.ts [runs=30]
 * (BENCH_PG_DIR / BENCH_PG_PORT choose the embedded database, as for the other benches.)
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDb } from "../src/server/core/db";
import { settingsWith } from "../src/server/services/context";
import { createInvite } from "../src/server/services/invites/create-invite";
import { ZCreateInviteInput } from "../src/server/services/invites/create-invite.schema";
import { ctxOf, makeMesh, makeUser } from "../src/test/mesh-fixtures";
import { startBroker } from "../broker/test-support";
import { packAndInstall } from "../packages/mesh-cli/pack-install";
import { benchDatabase, fmt, percentile } from "./lib";

// Bench-only configuration of the services that make the mesh and its invite (fixed values, as in the tests).
process.env.AUTH_SECRET ??= "bench-cli-start-auth-secret-0123456789abcdef";
process.env.SECRETS_KEYS ??= `kbench:${Buffer.alloc(32, 5).toString("base64")}`;
process.env.PASSWORD_SCRYPT_LOG2_N ??= "14";
process.env.LOG_LEVEL ??= "warn";

const RUNS = Number(process.argv[2] ?? 30);
const WARMUP = 3;
const ROOT = path.resolve(import.meta.dirname, "..");
const TSX_BIN = path.join(ROOT, "broker", "cli", "mesh.mjs");
/** The hook commands Claude Code runs on its events: args after `mesh`, the JSON it writes on stdin, a goal in ms. */
const HOOKS: { args: string[]; stdin?: string; goal?: number }[] = [{ args: ["hook", "set-status", "working"] }];
const LIMITS = ["WS_AUTH_RATE_PER_MINUTE", "JOIN_RATE_PER_MINUTE", "HOOK_RATE_CAPACITY", "HOOK_RATE_PER_MINUTE"];

const work = mkdtempSync(path.join(realpathSync(os.tmpdir()), "mesh-cli-bench-"));
let t0 = performance.now();
const pkg = await packAndInstall(work);
console.log(
  `packed and installed in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${path.basename(pkg.tarball)} ` +
    `${(statSync(pkg.tarball).size / 1024).toFixed(0)} KB, ${pkg.files.length} files`,
);
process.stdout.write(pkg.buildReport.replace(/^(?!\s).*prepack.*\n|^>.*\n/gm, ""));

const ready = await benchDatabase("bench_cli");
process.env.DATABASE_URL = ready.url;
const db = createDb(ready.url, { max: 4 });
const broker = await startBroker(db, Object.fromEntries(LIMITS.map((k) => [k, "1000000"])));
const owner = await makeUser(db);
const mesh = await makeMesh(db, owner);
const ctx = ctxOf(db, owner);
const invite = await createInvite(
  { ...ctx, settings: settingsWith(ctx.settings, { brokerUrl: broker.ws }) },
  ZCreateInviteInput.parse({ meshId: mesh.id }),
);

/** An environment as given, without NODE_ENV (which Next's typing of process.env insists on). */
type Env = Record<string, string | undefined>;

/** The environment of a person's shell: the prefix's bin and Node on the PATH, a HOME of its own. */
const userEnv = (home: string, extra: Env = {}): Env => ({
  PATH: [path.join(pkg.prefix, "bin"), path.dirname(process.execPath), "/usr/bin", "/bin"].join(path.delimiter),
  HOME: home,
  ...extra,
});

interface Variant {
  label: string;
  command: string;
  args: string[];
  env: Env;
  cwd: string;
  stdin?: string;
  goal?: number;
}

/** Milliseconds from spawning the process to its exit; a failed run stops the benchmark. */
function timed(v: Variant): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(v.command, v.args, {
      cwd: v.cwd,
      env: v.env as NodeJS.ProcessEnv,
      stdio: ["pipe", "ignore", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    child.stdin.end(v.stdin ?? "");
    child.once("error", reject);
    child.once("exit", (code) => {
      const ms = performance.now() - start;
      if (code === 0) resolve(ms);
      else reject(new Error(`${v.label} exited with ${code}: ${err}`));
    });
  });
}

const [ana, bo] = [path.join(work, "ana"), path.join(work, "bo")];
const elsewhere = path.join(work, "elsewhere");
for (const dir of [ana, bo, elsewhere]) mkdirSync(dir, { recursive: true });
for (const [home, name] of [
  [ana, "Ana"],
  [bo, "Bo"],
] as const) {
  await timed({
    label: `join ${name}`,
    command: pkg.bin,
    args: ["join", invite.joinUrl, "--name", name],
    env: userEnv(home),
    cwd: elsewhere,
  });
}

const installed = (label: string, args: string[], extra: Partial<Variant> = {}): Variant => ({
  label,
  command: pkg.bin,
  args,
  env: userEnv(ana),
  cwd: elsewhere,
  ...extra,
});
const viaTsx = (label: string, args: string[]): Variant => ({
  label,
  command: process.execPath,
  args: [TSX_BIN, ...args],
  env: { ...process.env, MESH_HOME: path.join(ana, ".config", "mesh") },
  cwd: ROOT,
});
// The repository's bin before issue 43: main.ts imported every command (and with them the client, ws, zod,
// tweetnacl and the MCP SDK) before printing the help. Emulated: every command module, then today's main.
const commandsDir = path.join(ROOT, "broker", "cli", "commands");
const everyCommand = readdirSync(commandsDir)
  .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
  .map((f) => path.join(commandsDir, f));
const eagerHelp: Variant = {
  label: "tsx, every command loaded (old --help)",
  command: process.execPath,
  args: [
    "--import",
    "tsx",
    "--input-type=module",
    "-e",
    `for (const f of ${JSON.stringify(everyCommand)}) await import(f);
     const { run } = await import(${JSON.stringify(path.join(ROOT, "broker", "cli", "main.ts"))});
     process.exit(await run(["--help"]));`,
  ],
  env: process.env,
  cwd: ROOT,
};
/** A Node older than 22 on this machine (no compile cache), to run the installed command with too. */
const older = ["/usr/bin/node", "/usr/local/bin/node"].find((node) => {
  if (!existsSync(node)) return false;
  const major = Number(/^v(\d+)\./.exec(spawnSync(node, ["--version"], { encoding: "utf8" }).stdout ?? "")?.[1]);
  return major >= 20 && major < 22;
});
const onOlder = (v: Variant): Variant => ({
  ...v,
  label: `${v.label} (Node ${spawnSync(older!, ["--version"], { encoding: "utf8" }).stdout.trim()})`,
  command: v.command === process.execPath ? older! : v.command,
  env: { ...v.env, PATH: [path.join(pkg.prefix, "bin"), path.dirname(older!), "/bin"].join(path.delimiter) },
  goal: undefined,
});
const nodeAlone: Variant = {
  label: "node -e ''",
  command: process.execPath,
  args: ["-e", ""],
  env: userEnv(ana),
  cwd: elsewhere,
};
const variants: Variant[] = [
  nodeAlone,
  eagerHelp,
  viaTsx("tsx: mesh --help (lazy commands)", ["--help"]),
  installed("mesh --help", ["--help"], { goal: 150 }),
  installed("mesh --version", ["--version"], { goal: 150 }),
  installed("mesh --help, no compile cache", ["--help"], {
    env: userEnv(ana, { NODE_DISABLE_COMPILE_CACHE: "1" }),
  }),
  // A command that loads the client (zod, tweetnacl, ws) and reads the config folder, with no network.
  installed("mesh meshes", ["meshes"]),
  installed("mesh meshes, no compile cache", ["meshes"], { env: userEnv(ana, { NODE_DISABLE_COMPILE_CACHE: "1" }) }),
  ...HOOKS.map((h) => installed(`mesh ${h.args.join(" ")}`, h.args, { stdin: h.stdin, goal: h.goal })),
  installed("mesh send", ["send", "benchmark message"], { goal: 300 }),
  viaTsx("tsx: mesh send", ["send", "benchmark message"]),
];
if (older)
  variants.push(
    ...[nodeAlone, installed("mesh --help", ["--help"]), installed("mesh send", ["send", "benchmark message"])].map(
      onOlder,
    ),
  );

console.log(
  `${RUNS} runs of each (after ${WARMUP} warm-up rounds), round-robin, on ${os.cpus().length} cores, Node ${process.version}`,
);
const samples = new Map<string, number[]>(variants.map((v) => [v.label, []]));
t0 = performance.now();
for (let round = 0; round < WARMUP + RUNS; round++) {
  for (const v of variants) {
    const ms = await timed(v);
    if (round >= WARMUP) samples.get(v.label)!.push(ms);
  }
}
const floor = percentile(samples.get("node -e ''")!, 50);
for (const v of variants) {
  const runs = samples.get(v.label)!;
  const p50 = percentile(runs, 50);
  const verdict = v.goal === undefined ? "" : p50 <= v.goal ? `  goal ${v.goal} ms met` : `  GOAL ${v.goal} ms MISSED`;
  console.log(
    `${v.label.padEnd(44)} median ${fmt(p50).padStart(9)}  p90 ${fmt(percentile(runs, 90)).padStart(9)}  ` +
      `${(p50 / floor).toFixed(2)}x node -e ''${verdict}`,
  );
}
console.log(`timed in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

await broker.close();
await db.$disconnect();
if (ready.embedded?.owned) await ready.embedded.stop();
rmSync(work, { recursive: true, force: true });
process.exit(0);

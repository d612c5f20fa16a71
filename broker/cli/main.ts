// Entry of the `mesh` command line (broker/cli/mesh.mjs from source, the package's dist/mesh.js when
// installed): dispatch, errors and exit codes.
import { readFileSync } from "node:fs";
import { setMeshEntry } from "./entry";
import { CliFailure, EXIT, UsageError } from "./exit-codes";
import { HELP, MAIN_HELP } from "./help";
import type { CliIo } from "./io";

type Command = (args: string[], io: CliIo) => Promise<number>;

// Each command's module is imported only when that command runs, so `mesh --help` (and a hook that
// imports little) starts without loading the client, zod, ws, tweetnacl or the MCP SDK. One line each.
const COMMANDS: Record<string, () => Promise<Command>> = {
  login: async () => (await import("./commands/account")).loginCommand,
  whoami: async () => (await import("./commands/account")).whoamiCommand,
  logout: async () => (await import("./commands/account")).logoutCommand,
  join: async () => (await import("./commands/join")).joinCommand,
  leave: async () => (await import("./commands/leave")).leaveCommand,
  meshes: async () => (await import("./commands/meshes")).meshesCommand,
  send: async () => (await import("./commands/send")).sendCommand,
  watch: async () => (await import("./commands/watch")).watchCommand,
  peers: async () => (await import("./commands/peers")).peersCommand,
  verify: async () => (await import("./commands/verify")).verifyCommand,
  status: async () => (await import("./commands/status")).statusCommand,
  hook: async () => (await import("./commands/hook")).hookCommand,
  mcp: async () => (await import("./commands/mcp")).mcpCommand,
  install: async () => (await import("./commands/install")).installCommand,
  uninstall: async () => (await import("./commands/install")).uninstallCommand,
  doctor: async () => (await import("./commands/doctor")).doctorCommand,
  inbox: async () => (await import("./commands/inbox")).inboxCommand,
  history: async () => (await import("./commands/history")).historyCommand,
};

/** Runs one command line; resolves with the exit code. Never prints keys (no command reads them out). */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    const topic = name === "help" ? args[0] : undefined;
    io.out(topic && HELP[topic] ? HELP[topic] : MAIN_HELP);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === "--version" || name === "-v") {
    io.out(versionOf());
    return EXIT.ok;
  }
  const load = COMMANDS[name];
  if (!load) {
    io.err(`mesh: unknown command ${JSON.stringify(name)}; run mesh --help`);
    return EXIT.usage;
  }
  if (args.includes("--help") || args.includes("-h")) {
    io.out(HELP[name] ?? MAIN_HELP);
    return EXIT.ok;
  }
  try {
    const command = await load();
    return await command(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`mesh ${name}: ${error.message}`);
      io.err(`run mesh ${name} --help for usage`);
      return EXIT.usage;
    }
    if (error instanceof CliFailure) {
      io.err(`mesh ${name}: ${error.message}`);
      return EXIT.failed;
    }
    // Unexpected: the message only (a stack could carry paths but never key material; keep it short).
    io.err(`mesh ${name}: unexpected error: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.failed;
  }
}

/** Set by the package build (packages/mesh-cli/build.ts) to the package's version; absent when run from source. */
declare const MESH_CLI_VERSION: string | undefined;

function versionOf(): string {
  if (typeof MESH_CLI_VERSION === "string") return `mesh ${MESH_CLI_VERSION} (protocol v1)`;
  try {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
      version?: string;
    };
    return `mesh ${pkg.version ?? "unknown"} (protocol v1)`;
  } catch {
    return "mesh (protocol v1)";
  }
}

/** The real process's streams, signals and stdin. */
export function processIo(): CliIo {
  const interrupted = new Promise<void>((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
  return {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
    cwd: process.cwd(),
    ppid: process.ppid,
    interrupted,
    readStdin: async () => {
      let text = "";
      for await (const chunk of process.stdin) text += String(chunk);
      return text;
    },
  };
}

/** What the bin calls; `entry`: the script that started the process, when it is not broker/cli/mesh.mjs. */
export async function run(argv: string[], entry?: string): Promise<number> {
  if (entry) setMeshEntry(entry);
  const code = await main(argv, processIo());
  // Flush before the caller sets the exit code (stdout to a pipe is asynchronous).
  await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
  return code;
}

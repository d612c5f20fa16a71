// Entry of the `mesh` command line (broker/cli/mesh.mjs runs it): dispatch, errors and exit codes.
import { readFileSync } from "node:fs";
import { loginCommand, logoutCommand, whoamiCommand } from "./commands/account";
import { historyCommand } from "./commands/history";
import { hookCommand } from "./commands/hook";
import { joinCommand } from "./commands/join";
import { leaveCommand } from "./commands/leave";
import { doctorCommand } from "./commands/doctor";
import { inboxCommand } from "./commands/inbox";
import { installCommand, uninstallCommand } from "./commands/install";
import { mcpCommand } from "./commands/mcp";
import { meshesCommand } from "./commands/meshes";
import { peersCommand } from "./commands/peers";
import { sendCommand } from "./commands/send";
import { statusCommand } from "./commands/status";
import { watchCommand } from "./commands/watch";
import { HELP, MAIN_HELP } from "./help";
import { CliFailure, EXIT, UsageError, type CliIo } from "./io";

const COMMANDS: Record<string, (args: string[], io: CliIo) => Promise<number>> = {
  login: loginCommand,
  whoami: whoamiCommand,
  logout: logoutCommand,
  join: joinCommand,
  leave: leaveCommand,
  meshes: meshesCommand,
  send: sendCommand,
  watch: watchCommand,
  peers: peersCommand,
  status: statusCommand,
  hook: hookCommand,
  mcp: mcpCommand,
  install: installCommand,
  uninstall: uninstallCommand,
  doctor: doctorCommand,
  inbox: inboxCommand,
  history: historyCommand,
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
  const command = COMMANDS[name];
  if (!command) {
    io.err(`mesh: unknown command ${JSON.stringify(name)}; run mesh --help`);
    return EXIT.usage;
  }
  if (args.includes("--help") || args.includes("-h")) {
    io.out(HELP[name] ?? MAIN_HELP);
    return EXIT.ok;
  }
  try {
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

function versionOf(): string {
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

/** What the bin shim calls. */
export async function run(argv: string[]): Promise<number> {
  const code = await main(argv, processIo());
  // Flush before the caller sets the exit code (stdout to a pipe is asynchronous).
  await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
  return code;
}

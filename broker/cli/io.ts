// What a command may touch of the outside world, passed in so tests can run commands in-process.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { ConfigStore, defaultMeshHome } from "../client/config-store";
import { UsageError } from "./exit-codes";

export { CliFailure, EXIT, UsageError } from "./exit-codes";

export interface CliIo {
  /** One line to standard output (results). */
  out: (line: string) => void;
  /** One line to standard error (progress, warnings, errors). */
  err: (line: string) => void;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** The process that ran `mesh` (the calling script, for the hook). */
  ppid: number;
  /** Resolves when the user asks to stop (Ctrl-C, SIGTERM). */
  interrupted: Promise<void>;
  readStdin: () => Promise<string>;
}

type Options = NonNullable<ParseArgsConfig["options"]>;

/** Parses a command's arguments strictly; unknown options and missing values are UsageErrors. */
export function parseCommandArgs<O extends Options>(args: string[], options: O) {
  try {
    return parseArgs({
      args,
      options: { ...options, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(
      ((error as Error).message.split("\n")[0] ?? "bad arguments").replace(
        /\. To specify a positional argument.*$/,
        "",
      ),
    );
  }
}

/** The config store of the command (MESH_HOME, else ~/.config/mesh). */
export function storeOf(io: CliIo): ConfigStore {
  return new ConfigStore(defaultMeshHome(io.env));
}

/** Shared options of commands that talk to one mesh. */
export const MESH_OPTIONS = {
  mesh: { type: "string" },
  json: { type: "boolean" },
  timeout: { type: "string" },
} as const satisfies Options;

/** Seconds of `--timeout` (default 30), as milliseconds. */
export function timeoutOf(value: string | undefined): number {
  if (value === undefined) return 30_000;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 86_400)
    throw new UsageError("--timeout takes a number of seconds (up to 86400)");
  return seconds * 1000;
}

/**
 * Text from a peer, made safe for a terminal: control characters (escape sequences that could move
 * the cursor or rewrite the screen, and line breaks that would forge extra lines) are shown escaped.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    if (c === "\n") return "\\n";
    if (c === "\t") return "\\t";
    if (c === "\r") return "\\r";
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}

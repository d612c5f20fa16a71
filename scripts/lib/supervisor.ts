import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { PROJECT_ROOT } from "../../src/server/core/project-root";

const COLORS = [36, 35, 33, 32, 34, 31];
const useColor = process.stdout.isTTY && !process.env.NO_COLOR;

/** Writes lines with a fixed-width label ("web    | ..."), so interleaved logs stay readable. */
export function labeller(label: string, index = 0) {
  const text = label.padEnd(8).slice(0, 8);
  const prefix = useColor ? `\x1b[${COLORS[index % COLORS.length]}m${text}|\x1b[0m ` : `${text}| `;
  return (line: string) => process.stdout.write(`${prefix}${line}\n`);
}

function pipeLines(stream: NodeJS.ReadableStream | null, write: (line: string) => void) {
  if (!stream) return;
  let rest = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) write(line);
  });
  stream.on("end", () => rest && write(rest));
}

export const bin = (name: string) => path.join(PROJECT_ROOT, "node_modules", ".bin", name);

export interface ChildSpec {
  label: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
}

export interface Supervised {
  spec: ChildSpec;
  child: ChildProcess;
  exited: Promise<number | null>;
}

/**
 * A TypeScript entry point as a command line. Production: Node itself with tsx's loader, so a signal
 * reaches the process and its own shutdown runs to the end (the tsx wrapper SIGKILLs a child that has
 * not reported a relayed signal within 30 ms, which a loaded machine can miss). Development: `tsx watch`.
 */
export function tsEntry(
  script: string,
  dev = false,
  nodeFlags: readonly string[] = [],
): Pick<ChildSpec, "command" | "args"> {
  return dev
    ? { command: bin("tsx"), args: ["watch", ...nodeFlags, script] }
    : { command: process.execPath, args: [...nodeFlags, "--import", "tsx", script] };
}

/** Starts a child in its own process group with labelled output (each line also goes to `onLine`). */
export function startChild(
  spec: ChildSpec,
  index: number,
  baseEnv: NodeJS.ProcessEnv,
  onLine?: (line: string) => void,
): Supervised {
  const label = labeller(spec.label, index);
  const write = onLine ? (line: string) => (label(line), onLine(line)) : label;
  const child = spawn(spec.command, spec.args, {
    cwd: PROJECT_ROOT,
    env: { ...baseEnv, ...spec.env, SERVICE_NAME: spec.label },
    stdio: ["ignore", "pipe", "pipe"],
    // Own process group: stopping it reaches every process the child started (next, tsx, ...).
    detached: true,
  });
  pipeLines(child.stdout, write);
  pipeLines(child.stderr, write);
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 : null))),
  );
  return { spec, child, exited };
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals) {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group is gone already
  }
}

/** Stops children: SIGTERM to each process group, SIGKILL after the grace period. */
export async function stopChildren(children: Supervised[], graceMs = 10_000): Promise<void> {
  await Promise.all(
    children.map(async ({ child, exited }) => {
      signalGroup(child, "SIGTERM");
      const timer = setTimeout(() => signalGroup(child, "SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
      // Whatever the child left in its group (grandchildren) goes too.
      signalGroup(child, "SIGKILL");
    }),
  );
}

/** Runs a command to completion with labelled output; rejects on a non-zero exit. */
export async function runStep(
  spec: ChildSpec,
  baseEnv: NodeJS.ProcessEnv = process.env,
  onLine?: (line: string) => void,
): Promise<void> {
  const run = startChild(spec, 5, baseEnv, onLine);
  const stop = () => signalGroup(run.child, "SIGTERM");
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  const code = await run.exited;
  process.off("SIGINT", stop);
  process.off("SIGTERM", stop);
  if (code !== 0) throw new Error(`${spec.label} failed (exit code ${code})`);
}

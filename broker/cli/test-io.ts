// An in-memory CliIo for running commands inside a test.
import type { CliIo } from "./io";

export function memoryIo(env: Record<string, string | undefined> = {}, opts: { stdin?: string } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  let interrupt: () => void = () => {};
  const interrupted = new Promise<void>((resolve) => (interrupt = resolve));
  const io: CliIo = {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    env,
    cwd: "/work/project",
    ppid: 4242,
    interrupted,
    readStdin: async () => opts.stdin ?? "",
  };
  return { io, out, err, interrupt: () => interrupt() };
}

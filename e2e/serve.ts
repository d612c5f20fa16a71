/**
 * The browser suite's web server: `scripts/start.ts` as it is, with its output passed through, and
 * every server-side line that reports a missing translation copied to SERVER_PROBLEMS (request.ts logs
 * `[i18n] missing message`; next-intl's client provider logs MISSING_MESSAGE while rendering on the
 * server). pages.spec.ts reads that file after every page it visits.
 */
import { spawn } from "node:child_process";
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { SERVER_PROBLEMS } from "./server-problems";

const PROBLEM = /\[i18n\]|MISSING_MESSAGE/;

mkdirSync(path.dirname(SERVER_PROBLEMS), { recursive: true });
writeFileSync(SERVER_PROBLEMS, "");
const root = path.resolve(import.meta.dirname, "..");
const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
  cwd: root,
  env: process.env,
  stdio: ["ignore", "pipe", "pipe"],
});

for (const [from, to] of [
  [child.stdout, process.stdout],
  [child.stderr, process.stderr],
] as const) {
  createInterface({ input: from }).on("line", (line) => {
    to.write(`${line}\n`);
    if (PROBLEM.test(line)) appendFileSync(SERVER_PROBLEMS, `${line}\n`);
  });
}
// start.ts stops its children and the database on the first signal and ignores repeats, so passing a
// signal on is safe even when the runner signals the whole process group.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

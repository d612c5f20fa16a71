import { readFileSync } from "node:fs";
import path from "node:path";

/** Server log lines about missing translations, written by e2e/serve.ts. */
export const SERVER_PROBLEMS = path.resolve(import.meta.dirname, "..", ".data", "e2e-server-problems.log");

/** The problem lines logged so far (none when the file is absent, e.g. a server started by hand). */
export function serverProblems(): string[] {
  try {
    return readFileSync(SERVER_PROBLEMS, "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * Runs one process of the product alone: `npm run web|broker|worker|db:seed`. Without DATABASE_URL it
 * starts the embedded PostgreSQL, or attaches to the one `npm start` already runs.
 */
import { labeller, startChild, stopChildren } from "./lib/supervisor";
import { prepare, processSpec, type ProcessName } from "./lib/product";

const what = process.argv[2];
const dev = process.argv.includes("--dev");
if (!["web", "broker", "worker", "seed"].includes(what ?? "")) {
  process.stderr.write("usage: tsx scripts/run.ts web|broker|worker|seed [--dev]\n");
  process.exit(2);
}

const { env, database } = await prepare({ dev, buildWeb: what === "web", seed: what === "seed" });
const stopDb = async () => {
  if (database.embedded?.owned) await database.embedded.stop();
};

if (what === "seed") {
  await stopDb();
  process.exit(0);
}

const child = startChild(processSpec(what as ProcessName, dev, env), 0, env);
const log = labeller("run", 5);
let stopping = false;
const shutdown = async (code: number) => {
  if (stopping) return;
  stopping = true;
  await stopChildren([child]);
  await stopDb();
  log("stopped");
  process.exit(code);
};
process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));
void child.exited.then((code) => shutdown(code ?? 1));

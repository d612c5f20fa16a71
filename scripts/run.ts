/**
 * Runs one process of the product alone: `npm run web|broker|worker|platform|db:seed`. Without DATABASE_URL it
 * starts the embedded PostgreSQL, or attaches to the one `npm start` already runs (the demo reviews
 * platform needs no database).
 */
import { demoPlatformEnv, demoPlatformSpec } from "./lib/demo-platform";
import { labeller, startChild, stopChildren } from "./lib/supervisor";
import { prepare, processSpec, type ProcessName } from "./lib/product";

const what = process.argv[2];
const dev = process.argv.includes("--dev");
if (!["web", "broker", "worker", "platform", "seed"].includes(what ?? "")) {
  process.stderr.write("usage: tsx scripts/run.ts web|broker|worker|platform|seed [--dev]\n");
  process.exit(2);
}

if (what === "platform") {
  const env = { ...process.env };
  demoPlatformEnv(env);
  const platform = startChild(demoPlatformSpec(dev), 0, env);
  const stop = () => void stopChildren([platform]).then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  process.exit((await platform.exited) ?? 1);
}

const { env, database } = await prepare({ dev, buildWeb: what === "web", seed: what === "seed" });
const stopDb = async () => {
  if (database.embedded?.owned) await database.embedded.stop();
};

if (what === "seed") {
  await stopDb();
  process.exit(0);
}

const child = startChild(processSpec(what as ProcessName, dev), 0, env);
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

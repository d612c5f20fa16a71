/**
 * The one command that starts the whole product: database (embedded unless DATABASE_URL is set),
 * migrations, demo data, production build when missing, then the web app, the broker, the worker and
 * the demo reviews platform as children with labelled logs. Ctrl-C or SIGTERM stops them all, then the database.
 * `--dev` runs the same with hot reload.
 */
import { demoPlatformEnv, demoPlatformSpec, waitForHealthy } from "./lib/demo-platform";
import { labeller, startChild, stopChildren, type Supervised } from "./lib/supervisor";
import { prepare, processSpec, type ProcessName } from "./lib/product";

const dev = process.argv.includes("--dev");
const log = labeller("start", 5);
const { env, database } = await prepare({ dev, buildWeb: true, seed: true });

const names: ProcessName[] = ["web", "broker", "worker"];
const platformHealth = demoPlatformEnv(env);
const children: Supervised[] = names.map((name, i) => startChild(processSpec(name, dev), i, env));
children.push(startChild(demoPlatformSpec(dev), names.length, env));
log(
  `web app on http://localhost:${env.PORT}/en · broker on :${env.BROKER_PORT ?? 4000} · worker health on :${env.WORKER_PORT ?? 4100}`,
);
waitForHealthy(platformHealth).then(
  () => log(`demo reviews platform on ${env.DEMO_PLATFORM_URL}`),
  (error: unknown) =>
    log(`demo reviews platform is not healthy: ${error instanceof Error ? error.message : String(error)}`),
);

let stopping = false;
async function shutdown(reason: string, code: number) {
  if (stopping) return;
  stopping = true;
  log(`stopping (${reason})`);
  await stopChildren(children);
  if (database.embedded?.owned) {
    log("stopping PostgreSQL");
    await database.embedded.stop();
  }
  log("stopped");
  process.exit(code);
}

process.on("SIGINT", () => void shutdown("SIGINT", 0));
process.on("SIGTERM", () => void shutdown("SIGTERM", 0));
process.on("SIGHUP", () => void shutdown("SIGHUP", 0));
for (const c of children) {
  // One process dying takes the product down with a non-zero code, rather than running half of it.
  void c.exited.then((code) => shutdown(`${c.spec.label} exited with code ${code}`, code === 0 ? 1 : (code ?? 1)));
}

import { ConfigError } from "../../src/server/core/config";
import { PROJECT_ROOT } from "../../src/server/core/project-root";
import { ensureDatabase, type ReadyDatabase } from "../database/ensure";
import { writeRevisionFile } from "../../src/server/core/git-sha";
import { prismaClientIsStale, webBuildIsStale } from "./build-state";
import { localDefaults } from "./local-env";
import { BROKER_NODE_FLAGS } from "../../broker/node-flags";
import { bin, labeller, runStep, tsEntry, type ChildSpec } from "./supervisor";

export type ProcessName = "web" | "broker" | "worker";

/** The command line of each long-running process, in production or development (hot reload) mode. */
export function processSpec(name: ProcessName, dev: boolean): ChildSpec {
  switch (name) {
    case "web":
      // Next.js behind the product's own HTTP boundary (src/web/server.ts; PORT and HOST from the env).
      // Development hot reload is Next.js's own (the server runs it with --dev), not tsx watch.
      return {
        label: "web",
        command: process.execPath,
        args: ["--import", "tsx", "src/web/server.ts", ...(dev ? ["--dev"] : [])],
      };
    case "broker":
      return { label: "broker", ...tsEntry("broker/index.ts", dev, BROKER_NODE_FLAGS) };
    case "worker":
      return { label: "worker", ...tsEntry("src/worker/index.ts", dev) };
  }
}

/** Prints a configuration error as one line naming the variable and exits non-zero. */
export function exitOnConfigError(error: unknown, label: string): never {
  if (error instanceof ConfigError) {
    process.stderr.write(`${label}: ${error.message}\n`);
    process.exit(1);
  }
  throw error;
}

/**
 * Everything before the processes start: generated client, database (embedded or DATABASE_URL),
 * migrations, demo data, and (for production) the web build. Returns the environment for children.
 */
export async function prepare(options: { dev: boolean; buildWeb: boolean; seed: boolean }): Promise<{
  env: NodeJS.ProcessEnv;
  database: ReadyDatabase;
}> {
  const log = labeller("start", 5);
  let database: ReadyDatabase;
  try {
    database = await ensureDatabase({ log: labeller("postgres", 4) });
  } catch (error) {
    exitOnConfigError(error, "start");
  }
  const env: NodeJS.ProcessEnv = { ...process.env, ...localDefaults(), DATABASE_URL: database.url };
  if (prismaClientIsStale()) {
    await runStep({ label: "generate", command: bin("prisma"), args: ["generate"] }, env);
  }
  if (options.seed) {
    const { createDb } = await import("../../src/server/core/db");
    const { seed } = await import("../../prisma/seed");
    const client = createDb(database.url, { max: 2 });
    try {
      await seed(client, log);
    } finally {
      await client.$disconnect();
    }
  }
  if (options.buildWeb && !options.dev && webBuildIsStale()) {
    log("building the web app (first start, or sources changed since the last build)");
    writeRevisionFile(PROJECT_ROOT);
    await runStep({ label: "build", command: bin("next"), args: ["build"] }, env);
  }
  return { env, database };
}

// Integration tests run against a real PostgreSQL: DATABASE_URL's server when set, otherwise the
// embedded server on its own port and folder (so it can run beside `npm start`). Each run gets a
// database of its own, migrated from scratch and dropped at the end: dev data is never touched.
import type { TestProject } from "vitest/node";
import { dropDatabase, ensureDatabase } from "../scripts/database/ensure";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const runDb = `test_${Date.now().toString(36)}_${process.pid}`;
  const env = {
    ...process.env,
    EMBEDDED_PG_DIR: process.env.TEST_PG_DIR ?? ".data/postgres-test",
    EMBEDDED_PG_PORT: process.env.TEST_PG_PORT ?? "30339",
  };
  const ready = await ensureDatabase({
    env,
    database: runDb,
    log: (line) => process.env.DEBUG_DB && console.log(line),
  });
  project.provide("databaseUrl", ready.url);
  process.env.DATABASE_URL = ready.url;
  return async () => {
    await dropDatabase(ready.url).catch(() => {});
    if (ready.embedded?.owned) await ready.embedded.stop();
  };
}

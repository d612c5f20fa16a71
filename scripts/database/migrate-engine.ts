// Prisma's native schema engine cannot be downloaded on the machines this project runs on, so
// `prisma migrate` does not work. This module drives the WebAssembly build of the same engine
// through the pg driver adapter instead; the migrations folder and the `_prisma_migrations` rows it
// produces are the stock ones, so `prisma migrate deploy` accepts them wherever it can run.
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { SchemaFilter } from "@prisma/schema-engine-wasm";
import pg from "pg";
import { lockStatement, migrationLock } from "../../src/server/core/locks";
import { createEngineAdapter, parseDatabaseUrl, quoteIdent, withDatabase, type PgTarget } from "./migrate-adapter";
import { LOCKFILE_CONTENT, nextMigrationFolderName, readMigrationsList, writeMigration } from "./migrate-files";
import { engineError, openSchemaEngine, type SchemaEngine } from "./migrate-wasm";

const NO_FILTERS: SchemaFilter = { externalTables: [], externalEnums: [] };

type Log = (msg: string) => void;
const quiet: Log = () => {};

async function withEngine<T>(
  main: PgTarget,
  shadow: PgTarget | undefined,
  log: Log,
  operation: string,
  run: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  const adapter = createEngineAdapter(main, shadow);
  let engine: SchemaEngine | undefined;
  try {
    engine = await openSchemaEngine(adapter.factory, { log });
    try {
      return await run(engine);
    } catch (error) {
      throw engineError(operation, error);
    }
  } finally {
    engine?.free();
    await adapter.close();
  }
}

async function connectClient(target: PgTarget, log: Log): Promise<pg.Client> {
  const client = new pg.Client(target.config);
  // An unhandled 'error' event (server restart, network drop) would crash the process.
  client.on("error", (error) => log(`migration connection error: ${error.message}`));
  await client.connect();
  return client;
}

/** Applies the pending migrations from `migrationsDir`, one process at a time. */
export async function applyMigrations(opts: {
  databaseUrl: string;
  migrationsDir: string;
  log?: (msg: string) => void;
}): Promise<{ applied: string[] }> {
  const log = opts.log ?? quiet;
  const target = parseDatabaseUrl(opts.databaseUrl);
  // A session lock on its own connection: the engine's pooled connections come and go, and a
  // session lock taken on one of them would vanish with it.
  const lock = await connectClient(target, log);
  try {
    const tryLock = lockStatement("pg_try_advisory_lock", migrationLock());
    const tried = await lock.query<{ ok: boolean }>(tryLock.text, tryLock.values);
    if (!tried.rows[0]?.ok) {
      log("another process is applying migrations; waiting for it to finish");
      const wait = lockStatement("pg_advisory_lock", migrationLock());
      await lock.query(wait.text, wait.values);
    }
    // Read the folder only once the lock is ours, so we see what the previous holder saw.
    const migrationsList = await readMigrationsList(opts.migrationsDir);
    if (migrationsList.migrationDirectories.length === 0) {
      log(`no migrations found in ${migrationsList.baseDir}`);
      return { applied: [] };
    }
    const output = await withEngine(target, undefined, log, "applyMigrations", (engine) =>
      engine.applyMigrations({ migrationsList, filters: NO_FILTERS }),
    );
    for (const name of output.appliedMigrationNames) log(`applied migration ${name}`);
    return { applied: output.appliedMigrationNames };
  } finally {
    // Ending the session releases the lock anyway; unlocking first just makes it prompt.
    const unlock = lockStatement("pg_advisory_unlock", migrationLock());
    await lock.query(unlock.text, unlock.values).catch(() => undefined);
    await lock.end().catch(() => undefined);
  }
}

async function dropDatabase(admin: pg.Client, name: string): Promise<void> {
  try {
    // FORCE ends connections the engine may have left behind (PostgreSQL 13+).
    await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
  } catch (error) {
    if ((error as { code?: unknown }).code !== "42601") throw error;
    await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)}`);
  }
}

interface DiffInput {
  databaseUrl: string;
  schemaPath: string;
  migrationsDir: string;
  log?: (msg: string) => void;
}

async function diffWithShadow(opts: DiffInput) {
  const log = opts.log ?? quiet;
  const target = parseDatabaseUrl(opts.databaseUrl);
  const schema = await readFile(opts.schemaPath, "utf8");
  const migrationsList = await readMigrationsList(opts.migrationsDir);
  // The engine reads the connector from the lockfile; a folder without one yet is PostgreSQL too.
  const replayList = {
    ...migrationsList,
    lockfile: { ...migrationsList.lockfile, content: migrationsList.lockfile.content ?? LOCKFILE_CONTENT },
  };
  const shadowName = `prisma_shadow_${process.pid}_${randomBytes(6).toString("hex")}`;
  const admin = await connectClient(target, log);
  try {
    await admin.query(`CREATE DATABASE ${quoteIdent(shadowName)}`);
    try {
      // Diffing "migrations folder -> schema" replays the folder on the shadow database through
      // connectToShadowDb; the engine's createMigration would want a shadow URL factory instead.
      const result = await withEngine(target, withDatabase(target, shadowName), log, "diff", (engine) =>
        engine.diff({
          from: { tag: "migrations", ...replayList },
          to: { tag: "schemaDatamodel", files: [{ path: opts.schemaPath, content: schema }] },
          script: true,
          // With exitCode the engine says 2 for "changes" and 0 for none, which is more reliable
          // than recognising its "-- This is an empty migration." placeholder.
          exitCode: true,
          filters: NO_FILTERS,
        }),
      );
      const sql = result.exitCode === 0 ? "" : (result.stdout ?? "");
      return { sql, migrationsList };
    } finally {
      await dropDatabase(admin, shadowName);
    }
  } finally {
    await admin.end().catch(() => undefined);
  }
}

/** Returns the SQL still needed to go from the replayed migrations to the schema ("" when in sync). */
export async function diffMigrationsAgainstSchema(opts: DiffInput): Promise<string> {
  return (await diffWithShadow(opts)).sql;
}

/** Writes a new migration folder for whatever the schema adds to the migrations; null when nothing does. */
export async function createMigration(
  opts: DiffInput & { name: string },
): Promise<{ created: string | null; sql: string }> {
  const { sql, migrationsList } = await diffWithShadow(opts);
  if (sql === "") return { created: null, sql: "" };
  const folder = nextMigrationFolderName(
    migrationsList.migrationDirectories.map((dir) => dir.path),
    opts.name,
  );
  await writeMigration(migrationsList, folder, sql);
  return { created: folder, sql };
}

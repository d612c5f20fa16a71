import path from "node:path";
import pg from "pg";
import { z } from "zod";
import { envPort, parseConfig, ZDatabaseUrl } from "../../src/server/core/config";
import { PROJECT_ROOT } from "../../src/server/core/project-root";
import { startEmbeddedPostgres, type EmbeddedServer } from "./embedded";
import { applyMigrations } from "./migrate-engine";

export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, "prisma", "migrations");
export const SCHEMA_PATH = path.join(PROJECT_ROOT, "prisma", "schema.prisma");

/** Settings that decide which PostgreSQL the project uses. */
export const ZDatabaseEnv = z.object({
  // Unset means "start the embedded server"; set (even empty) it must be a postgres:// URL.
  DATABASE_URL: ZDatabaseUrl.optional(),
  EMBEDDED_PG_DIR: z.string().default(".data/postgres"),
  EMBEDDED_PG_PORT: envPort(54329),
  EMBEDDED_PG_DATABASE: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, { error: "must be a lower-case PostgreSQL identifier" })
    .default("app"),
});
export type TDatabaseEnv = z.output<typeof ZDatabaseEnv>;

export interface ReadyDatabase {
  url: string;
  /** The embedded server, when this process started or attached to one. */
  embedded: EmbeddedServer | null;
  applied: string[];
}

function databaseNameOf(url: string): { admin: string; name: string } {
  const parsed = new URL(url);
  const name = decodeURIComponent(parsed.pathname.replace(/^\//, "")) || "postgres";
  parsed.pathname = "/postgres";
  return { admin: parsed.toString(), name };
}

/** Creates the database named in the URL when it does not exist yet (on a server we may administer). */
export async function createDatabaseIfMissing(url: string): Promise<boolean> {
  const { admin, name } = databaseNameOf(url);
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount) return false;
    try {
      await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      return true;
    } catch (error) {
      // Another process created it between the check and the CREATE: 42P04 once it is committed,
      // 23505 (pg_database's unique index) while both CREATEs are in flight.
      const code = (error as { code?: string }).code;
      if (code === "42P04" || code === "23505") return false;
      throw error;
    }
  } finally {
    await client.end();
  }
}

/** Drops a database (used by the test suite for its per-run databases). */
export async function dropDatabase(url: string): Promise<void> {
  const { admin, name } = databaseNameOf(url);
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/**
 * Makes a database ready for the product: with no DATABASE_URL, starts (or attaches to) the embedded
 * PostgreSQL and creates its database; then applies pending migrations under an advisory lock.
 */
export async function ensureDatabase(
  options: { env?: Record<string, string | undefined>; log?: (line: string) => void; database?: string } = {},
): Promise<ReadyDatabase> {
  const env = parseConfig(ZDatabaseEnv, options.env ?? process.env);
  const log = options.log ?? (() => {});
  let embedded: EmbeddedServer | null = null;
  let url: string;
  if (env.DATABASE_URL !== undefined) {
    url = env.DATABASE_URL;
  } else {
    embedded = await startEmbeddedPostgres({
      dir: path.resolve(PROJECT_ROOT, env.EMBEDDED_PG_DIR),
      port: env.EMBEDDED_PG_PORT,
      log,
    });
    url = embedded.urlFor(options.database ?? env.EMBEDDED_PG_DATABASE);
  }
  if (options.database && env.DATABASE_URL !== undefined) {
    const parsed = new URL(url);
    parsed.pathname = `/${options.database}`;
    url = parsed.toString();
  }
  try {
    if (await createDatabaseIfMissing(url)) log(`created database ${databaseNameOf(url).name}`);
    const { applied } = await applyMigrations({ databaseUrl: url, migrationsDir: MIGRATIONS_DIR, log });
    if (applied.length) log(`applied migrations: ${applied.join(", ")}`);
    return { url, embedded, applied };
  } catch (error) {
    if (embedded?.owned) await embedded.stop();
    throw error;
  }
}

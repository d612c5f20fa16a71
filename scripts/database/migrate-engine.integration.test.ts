import { createHash, randomBytes } from "node:crypto";
import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, createMigration, diffMigrationsAgainstSchema } from "./migrate-engine";

// Needs a real PostgreSQL where the user may CREATE DATABASE; every test works in databases of its own.
const DATABASE_URL = process.env.DATABASE_URL;
const PROJECT_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const MIGRATIONS_DIR = path.join(PROJECT_ROOT, "prisma", "migrations");
const SCHEMA_PATH = path.join(PROJECT_ROOT, "prisma", "schema.prisma");

const EXTRA_MODEL = `
model MigrationProbe {
  id    Int    @id @default(autoincrement())
  label String @unique

  @@map("migration_probes")
}
`;

function urlFor(database: string): string {
  const url = new URL(DATABASE_URL ?? "");
  url.pathname = `/${database}`;
  return url.toString();
}

async function migrationFolders(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

async function query<T extends pg.QueryResultRow>(database: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: urlFor(database) });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

// The integration setup always provides it; a missing one is a broken setup, not a reason to skip.
if (!DATABASE_URL) throw new Error("integration tests need DATABASE_URL from the setup");

describe("migrate-engine against PostgreSQL (DATABASE_URL)", () => {
  let admin: pg.Client;
  const created: string[] = [];
  const tempDirs: string[] = [];

  async function freshDatabase(): Promise<string> {
    const name = `mig_test_${randomBytes(5).toString("hex")}`;
    await admin.query(`CREATE DATABASE "${name}"`);
    created.push(name);
    return name;
  }

  async function tempDir(): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), "migrate-engine-test-"));
    tempDirs.push(dir);
    return dir;
  }

  async function schemaWithExtraModel(dir: string): Promise<string> {
    const file = path.join(dir, "schema.prisma");
    await writeFile(file, (await readFile(SCHEMA_PATH, "utf8")) + EXTRA_MODEL, "utf8");
    return file;
  }

  async function leftoverShadowDatabases(): Promise<string[]> {
    const { rows } = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE $1", [
      `prisma_shadow_${process.pid}_%`,
    ]);
    return rows.map((row) => row.datname);
  }

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
  });

  afterEach(async () => {
    for (const name of created.splice(0)) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    for (const dir of tempDirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  afterAll(async () => {
    await admin.end();
  });

  it("applies every migration to an empty database and records them like the stock CLI", async () => {
    const db = await freshDatabase();
    const folders = await migrationFolders(MIGRATIONS_DIR);
    expect(folders.length).toBeGreaterThan(0);

    const { applied } = await applyMigrations({ databaseUrl: urlFor(db), migrationsDir: MIGRATIONS_DIR });
    expect(applied).toEqual(folders);

    const rows = await query<{ migration_name: string; checksum: string; finished: boolean; rolled_back: boolean }>(
      db,
      `SELECT migration_name, checksum, finished_at IS NOT NULL AS finished, rolled_back_at IS NOT NULL AS rolled_back
       FROM _prisma_migrations ORDER BY migration_name`,
    );
    expect(rows.map((row) => row.migration_name)).toEqual(folders);
    for (const row of rows) {
      const script = await readFile(path.join(MIGRATIONS_DIR, row.migration_name, "migration.sql"));
      expect(row.checksum).toBe(createHash("sha256").update(script).digest("hex"));
      expect(row.finished).toBe(true);
      expect(row.rolled_back).toBe(false);
    }
    const tables = await query<{ tablename: string }>(
      db,
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public'",
    );
    expect(tables.map((table) => table.tablename)).toEqual(expect.arrayContaining(["users", "meshes"]));
  });

  it("applies nothing the second time", async () => {
    const db = await freshDatabase();
    await applyMigrations({ databaseUrl: urlFor(db), migrationsDir: MIGRATIONS_DIR });

    const again = await applyMigrations({ databaseUrl: urlFor(db), migrationsDir: MIGRATIONS_DIR });
    expect(again.applied).toEqual([]);
    const [count] = await query<{ n: number }>(db, "SELECT count(*)::int AS n FROM _prisma_migrations");
    expect(count?.n).toBe((await migrationFolders(MIGRATIONS_DIR)).length);
  });

  it("lets two concurrent runs on one fresh database apply each migration exactly once", async () => {
    const db = await freshDatabase();
    const folders = await migrationFolders(MIGRATIONS_DIR);

    const runs = await Promise.all([
      applyMigrations({ databaseUrl: urlFor(db), migrationsDir: MIGRATIONS_DIR }),
      applyMigrations({ databaseUrl: urlFor(db), migrationsDir: MIGRATIONS_DIR }),
    ]);

    // The lock makes the loser wait, after which nothing is left for it.
    expect(runs.map((run) => run.applied.length).sort()).toEqual([0, folders.length]);
    const rows = await query<{ migration_name: string; n: number }>(
      db,
      "SELECT migration_name, count(*)::int AS n FROM _prisma_migrations GROUP BY migration_name ORDER BY migration_name",
    );
    expect(rows).toEqual(folders.map((name) => ({ migration_name: name, n: 1 })));
  });

  it("creates a migration folder for a schema change, then finds nothing more to do", async () => {
    const dir = await tempDir();
    const migrationsDir = path.join(dir, "migrations");
    await cp(MIGRATIONS_DIR, migrationsDir, { recursive: true });
    const schemaPath = await schemaWithExtraModel(dir);
    const before = await migrationFolders(migrationsDir);
    const databaseUrl = urlFor(await freshDatabase());

    const result = await createMigration({ databaseUrl, schemaPath, migrationsDir, name: "Add probe" });

    expect(result.created).toMatch(/^\d{14}_add_probe$/);
    expect(result.sql).toContain('CREATE TABLE "migration_probes"');
    expect(result.sql).toContain('CREATE UNIQUE INDEX "migration_probes_label_key"');
    const folder = result.created ?? "";
    expect(await migrationFolders(migrationsDir)).toEqual([...before, folder]);
    // The new folder must sort last, or deploy would run it out of order.
    expect(folder > (before[before.length - 1] ?? "")).toBe(true);
    expect(await readFile(path.join(migrationsDir, folder, "migration.sql"), "utf8")).toBe(result.sql);
    expect((await stat(path.join(migrationsDir, "migration_lock.toml"))).isFile()).toBe(true);

    const again = await createMigration({ databaseUrl, schemaPath, migrationsDir, name: "noop" });
    expect(again).toEqual({ created: null, sql: "" });
    expect(await leftoverShadowDatabases()).toEqual([]);
  });

  it("writes the lockfile and an init migration into an empty folder", async () => {
    const dir = await tempDir();
    const migrationsDir = path.join(dir, "migrations");
    const databaseUrl = urlFor(await freshDatabase());

    const result = await createMigration({ databaseUrl, schemaPath: SCHEMA_PATH, migrationsDir, name: "init" });

    expect(result.created).toMatch(/^\d{14}_init$/);
    expect(result.sql).toContain('CREATE TABLE "users"');
    expect(await readFile(path.join(migrationsDir, "migration_lock.toml"), "utf8")).toContain(
      'provider = "postgresql"',
    );
  });

  it("reports no drift between the project's schema and its migrations", async () => {
    const databaseUrl = urlFor(await freshDatabase());
    const sql = await diffMigrationsAgainstSchema({
      databaseUrl,
      schemaPath: SCHEMA_PATH,
      migrationsDir: MIGRATIONS_DIR,
    });
    expect(sql).toBe("");
    expect(await leftoverShadowDatabases()).toEqual([]);
  });

  it("reports drift when the schema has a model the migrations lack", async () => {
    const schemaPath = await schemaWithExtraModel(await tempDir());
    const databaseUrl = urlFor(await freshDatabase());
    const sql = await diffMigrationsAgainstSchema({ databaseUrl, schemaPath, migrationsDir: MIGRATIONS_DIR });
    expect(sql).toContain('CREATE TABLE "migration_probes"');
    expect(await leftoverShadowDatabases()).toEqual([]);
  });
});

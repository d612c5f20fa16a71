import { randomBytes, randomUUID } from "node:crypto";
import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, expect, it } from "vitest";
import { applyMigrations } from "./migrate-engine";

// An installation upgraded across 20261129020000_deliveries_in_their_own_table keeps its delivery times.
const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) throw new Error("integration tests need DATABASE_URL from the setup");
const MIGRATIONS_DIR = path.join(fileURLToPath(new URL("../../", import.meta.url)), "prisma", "migrations");
const MIGRATION = "20261129020000_deliveries_in_their_own_table";

const name = `mig_deliveries_${randomBytes(5).toString("hex")}`;
const url = new URL(DATABASE_URL);
url.pathname = `/${name}`;
const admin = new pg.Client({ connectionString: DATABASE_URL });
let temp = "";

afterAll(async () => {
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
  if (temp) await rm(temp, { recursive: true, force: true });
});

it("moves the delivery times of existing envelopes into message_deliveries and fills the envelopes' pages again", async () => {
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  // The migrations before this one, in a folder of their own.
  temp = await mkdtemp(path.join(os.tmpdir(), "deliveries-migration-"));
  for (const entry of await readdir(MIGRATIONS_DIR, { withFileTypes: true })) {
    if (entry.isDirectory() ? entry.name < MIGRATION : true)
      await cp(path.join(MIGRATIONS_DIR, entry.name), path.join(temp, entry.name), { recursive: true });
  }
  await applyMigrations({ databaseUrl: url.toString(), migrationsDir: temp });
  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  try {
    const [delivered, waiting] = [randomUUID(), randomUUID()];
    const at = "2026-11-28 12:34:56.789";
    for (const [id, deliveredAt] of [
      [delivered, at],
      [waiting, null],
    ] as const) {
      await db.query(
        `INSERT INTO message_envelopes (id, mesh_id, sender_member_id, target_spec, byte_size, ciphertext, expires_at, delivered_at)
         VALUES ($1, $2, $3, '{"kind":"mesh"}', 3, 'abc', now() + interval '1 day', $4)`,
        [id, randomUUID(), randomUUID(), deliveredAt],
      );
    }
    const { applied } = await applyMigrations({ databaseUrl: url.toString(), migrationsDir: MIGRATIONS_DIR });
    expect(applied[0]).toBe(MIGRATION);
    const rows = (
      await db.query<{ envelope_id: string; at: string }>(
        "SELECT envelope_id, delivered_at::text AS at FROM message_deliveries",
      )
    ).rows;
    expect(rows).toEqual([{ envelope_id: delivered, at }]);
    // The fillfactor the update needed (50 before) is gone: pages are filled.
    const options = await db.query<{ reloptions: string[] | null }>(
      "SELECT reloptions FROM pg_class WHERE relname = 'message_envelopes'",
    );
    expect((options.rows[0]?.reloptions ?? []).filter((o) => o.startsWith("fillfactor="))).toEqual([]);
    // Deleting an envelope deletes its delivery (the envelopes' delete trigger).
    await db.query("DELETE FROM message_envelopes WHERE id = $1", [delivered]);
    expect((await db.query("SELECT 1 FROM message_deliveries")).rowCount).toBe(0);
  } finally {
    await db.end();
  }
});

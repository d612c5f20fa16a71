import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { freePort, uid } from "@/test/helpers";
import { startEmbeddedPostgres } from "./embedded";
import { createDatabaseIfMissing, dropDatabase, ensureDatabase } from "./ensure";

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

const serverUrl = () => process.env.DATABASE_URL ?? "";
const withDatabase = (name: string) => {
  const u = new URL(serverUrl());
  u.pathname = `/${name}`;
  return u.toString();
};

describe("ensureDatabase", () => {
  it("creates the database and applies every migration exactly once when two processes start at once", async () => {
    const url = withDatabase(uid("race").replace(/-/g, "_"));
    const env = { DATABASE_URL: url };
    const [a, b] = await Promise.all([ensureDatabase({ env }), ensureDatabase({ env })]);
    expect(a.url).toBe(url);
    expect([...a.applied, ...b.applied].length).toBeGreaterThan(0);
    const rows = await query<{ migration_name: string; n: string }>(
      url,
      "SELECT migration_name, count(*) AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL GROUP BY 1",
    );
    expect(rows.every((r) => r.n === "1")).toBe(true);
    expect(rows.map((r) => r.migration_name).sort()).toEqual([...a.applied, ...b.applied].sort());
    const again = await ensureDatabase({ env });
    expect(again.applied).toEqual([]);
    await dropDatabase(url);
  });

  it("rejects a DATABASE_URL that does not begin with postgres://", async () => {
    await expect(ensureDatabase({ env: { DATABASE_URL: "postgresql://x/y" } })).rejects.toThrow(
      /DATABASE_URL must begin with postgres:\/\//,
    );
    await expect(ensureDatabase({ env: { DATABASE_URL: "" } })).rejects.toThrow(/DATABASE_URL is required/);
  });

  it("createDatabaseIfMissing is idempotent", async () => {
    const url = withDatabase(uid("idem").replace(/-/g, "_"));
    expect(await createDatabaseIfMissing(url)).toBe(true);
    expect(await createDatabaseIfMissing(url)).toBe(false);
    await dropDatabase(url);
  });
});

describe("embedded PostgreSQL", () => {
  it("keeps data across a restart and attaches to a server already running on its folder", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "pg-embedded-"));
    const port = await freePort();
    try {
      const first = await startEmbeddedPostgres({ dir, port });
      expect(first.owned).toBe(true);
      const url = first.urlFor("postgres");
      await query(url, "CREATE TABLE kept (v text); INSERT INTO kept VALUES ('still here')");
      const attached = await startEmbeddedPostgres({ dir, port });
      expect(attached.owned).toBe(false);
      await first.stop();

      const second = await startEmbeddedPostgres({ dir, port });
      expect(await query<{ v: string }>(second.urlFor("postgres"), "SELECT v FROM kept")).toEqual([
        { v: "still here" },
      ]);
      await second.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

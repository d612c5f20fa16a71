import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// prisma/sql/ holds the current text of every SQL function the migrations create, one file each. This test holds
// the two together: the files' functions, created in a scratch schema, must be what the migrated database has
// (pg_get_functiondef: arguments, result, language, settings, body), and every function of the public schema must
// have its file. Whitespace is normalised; the scratch schema is rolled back.

const SQL_DIR = import.meta.dirname;
const SCRATCH = `sql_home_${process.pid}`;
const files = readdirSync(SQL_DIR)
  .filter((f) => f.endsWith(".sql"))
  .sort();

const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
beforeAll(() => client.connect());
afterAll(() => client.end());

const normalise = (def: string, schema: string) => def.replaceAll(`${schema}.`, "").replace(/\s+/g, " ").trim();

/** pg_get_functiondef of every function in `schema` (not those of extensions), by name. */
async function definitions(schema: string): Promise<Map<string, string>> {
  const { rows } = await client.query<{ name: string; def: string }>(
    `SELECT p.proname AS name, pg_get_functiondef(p.oid) AS def
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = $1 AND p.prokind = 'f'
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
      ORDER BY 1`,
    [schema],
  );
  return new Map(rows.map((r) => [r.name, normalise(r.def, schema)]));
}

describe("prisma/sql", () => {
  it("has one file per function of the migrated database", async () => {
    const migrated = await definitions("public");
    expect(files).toEqual([...migrated.keys()].map((name) => `${name}.sql`));
  });

  it("holds each function's current definition", async () => {
    const migrated = await definitions("public");
    await client.query("BEGIN");
    try {
      await client.query(`CREATE SCHEMA ${SCRATCH}`);
      // Unqualified names: the files' functions land in the scratch schema and read the public tables.
      await client.query(`SET LOCAL search_path = ${SCRATCH}, public`);
      for (const file of files) await client.query(readFileSync(path.join(SQL_DIR, file), "utf8"));
      const fromFiles = await definitions(SCRATCH);
      for (const file of files) {
        const name = file.replace(/\.sql$/, "");
        expect(fromFiles.get(name), file).toBe(migrated.get(name));
      }
    } finally {
      await client.query("ROLLBACK");
    }
  });
});

import pg from "pg";
import { embeddedUrl } from "../scripts/database/embedded";
import { e2eDatabase } from "./playwright.config";

/**
 * One statement against the database of the server under test (DATABASE_URL when the run uses one,
 * else the embedded server of playwright.config.ts). For what no page can do, such as letting time pass.
 */
export async function sql(text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({
    connectionString: process.env.DATABASE_URL || embeddedUrl(e2eDatabase.port, e2eDatabase.name),
  });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

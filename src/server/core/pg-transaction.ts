import type pg from "pg";

/**
 * Runs `work` in BEGIN … COMMIT on one pooled connection (plain pg: no Prisma transaction timeouts).
 * While the connection is checked out, an error on it (the server went away between two statements) is
 * caught here rather than crashing the process, and a connection that failed is destroyed instead of
 * going back to the pool.
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  const ignore = () => {};
  client.on("error", ignore);
  let failed: unknown;
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    failed = error;
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.off("error", ignore);
    client.release(failed instanceof Error ? failed : undefined);
  }
}

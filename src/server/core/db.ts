import { createHash } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import type { Readable } from "node:stream";
import pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { PrismaClient, type Prisma as PrismaNs } from "../../generated/prisma/client.ts";
import { ZDatabaseUrl } from "./config";

export type Db = InstanceType<typeof PrismaClient>;
export { Prisma } from "../../generated/prisma/client.ts";

// Each client's pg pool, for `sqlRows` and `copyOut`: kept on the client under a registered symbol, not
// in a module-level map, because a bundle may hold several instances of this module (Next.js route
// chunks) while the process shares one client (`db()` on globalThis); a map of another instance would
// not know it.
// A transaction client may read the base client's properties through (Prisma's are proxies), so the
// holder names its owner: only the client itself gets the pool, a transaction gets none.
const POOL = Symbol.for("review-mesh.db.pool");
const poolOf = (client: object): pg.Pool | undefined => {
  const held = (client as { [POOL]?: { owner: object; pool: pg.Pool } })[POOL];
  return held && held.owner === client ? held.pool : undefined;
};

// Rows read by `sqlRows` as Prisma reads them: a `timestamp` column holds UTC (Prisma's convention).
const TIMESTAMP = 1114;
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === TIMESTAMP
      ? (text: string) => new Date(`${text.replace(" ", "T")}Z`)
      : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

/**
 * Builds a Prisma client on the pg driver adapter (no native query engine), over a pool `sqlRows` shares.
 * `idleInTransactionMs`: PostgreSQL ends a session of this client left idle inside a transaction that long
 * (idle_in_transaction_session_timeout), so a transaction cut off by the network releases its row locks.
 */
export function createDb(url: string, options: { max?: number; idleInTransactionMs?: number } = {}): Db {
  // Sessions in UTC: `timestamp` columns hold UTC (Prisma's convention), also when SQL converts now() or a timestamptz into them.
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? Number(process.env.DB_POOL_MAX ?? 10),
    idleTimeoutMillis: 30_000,
    options: `-c TimeZone=UTC${options.idleInTransactionMs ? ` -c idle_in_transaction_session_timeout=${Math.ceil(options.idleInTransactionMs)}` : ""}`,
    types,
  });
  // An idle connection that drops (the server restarted, the network cut) makes the pool emit 'error'
  // after it has removed that connection; unheard, the event would end the process. Prisma's adapter
  // listens only once its first query ran, and `sqlRows`/`copyOut` may come first. The next query opens
  // a new connection.
  pool.on("error", () => {});
  const client = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  Object.defineProperty(client, POOL, { value: { owner: client, pool } });
  return client;
}

/**
 * Runs one SQL statement and returns its rows. On a client made by `createDb` (not inside a
 * transaction) it goes straight to the pool as a named prepared statement: PostgreSQL plans it once per
 * connection, and Prisma's per-query work is skipped. The hot path of the jobs uses it for statements
 * that run thousands of times a second; in a transaction it is `$queryRaw` on that transaction.
 */
export async function sqlRows<T>(db: Db | PrismaNs.TransactionClient, sql: PrismaNs.Sql): Promise<T[]> {
  const pool = poolOf(db);
  if (!pool) return db.$queryRaw<T[]>(sql);
  const name = `q${createHash("sha1").update(sql.text).digest("base64url").slice(0, 24)}`;
  const result = await pool.query<T & pg.QueryResultRow>({ name, text: sql.text, values: sql.values as unknown[] });
  return result.rows;
}

/**
 * Streams `COPY (<query>) TO STDOUT …` from a connection of the client's pool: PostgreSQL formats the
 * rows and the bytes pass through (the fastest way out of the database). The connection goes back to
 * the pool when the copy ends; when the stream fails or is destroyed early (a reader that left), the
 * connection is discarded, as it is mid-protocol. The statement text is sent as it is (COPY takes no
 * parameters): callers build it from validated values only.
 */
export async function copyOut(db: Db, statement: string): Promise<Readable> {
  const pool = poolOf(db);
  if (!pool) throw new Error("copyOut needs a client made by createDb");
  const client = await pool.connect();
  let released = false;
  let stream: Readable | undefined;
  // A checked-out client has no listener of the pool's: its connection dropping mid-copy (the server
  // killed, the network cut) would be an uncaught 'error' event and end the process. Here it fails the copy.
  const onClientError = (error: Error) => {
    stream?.destroy(error);
    release(error);
  };
  const release = (error?: Error) => {
    if (released) return;
    released = true;
    client.off("error", onClientError);
    client.release(error ?? false);
  };
  client.on("error", onClientError);
  try {
    stream = client.query(copyTo(statement));
  } catch (error) {
    release(error as Error);
    throw error;
  }
  const copy = stream;
  copy.once("end", () => release());
  // Kept for the stream's life, not once: a dropped connection can error the copy twice (pg fails its
  // queries and the client's 'error' destroys the stream), and a second 'error' with no listener would
  // be uncaught.
  copy.on("error", (error) => release(error));
  copy.once("close", () => release(new Error("copy stream closed before its end")));
  return copy;
}

const globalForDb = globalThis as unknown as { __db?: Db };

/**
 * The one Prisma client of this process, on DATABASE_URL. Kept on globalThis so that hot reload in
 * development does not open a new pool on every change.
 */
export function db(): Db {
  if (!globalForDb.__db) {
    const parsed = ZDatabaseUrl.safeParse(process.env.DATABASE_URL);
    if (!parsed.success) {
      throw new Error(`DATABASE_URL ${parsed.error.issues[0]?.message ?? "is invalid"}`);
    }
    globalForDb.__db = createDb(parsed.data);
  }
  return globalForDb.__db;
}

/** Closes the process's client, if one was opened. */
export async function disconnectDb(): Promise<void> {
  const current = globalForDb.__db;
  globalForDb.__db = undefined;
  await current?.$disconnect();
  // Prisma ends the pool only when it connected; `sqlRows` alone may have opened connections.
  const pool = current && poolOf(current);
  if (pool && !pool.ending) await pool.end();
}

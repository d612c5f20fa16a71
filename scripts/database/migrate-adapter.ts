import { PrismaPg } from "@prisma/adapter-pg";
import {
  bindMigrationAwareSqlAdapterFactory,
  ColumnTypeEnum,
  DriverAdapterError,
  type ErrorCapturingSqlMigrationAwareDriverAdapterFactory,
  type SqlDriverAdapter,
  type SqlResultSet,
  type Transaction,
} from "@prisma/driver-adapter-utils";
import pg from "pg";
import { waitAtMost } from "../../src/server/core/lifecycle";

/** Where the engine connects: node-postgres settings with every part as its own field. */
export interface PgTarget {
  config: pg.ClientConfig;
  /** PostgreSQL schema from `?schema=` (Prisma's URL convention); undefined means `public`. */
  schema: string | undefined;
}

function sslFromMode(mode: string | null): pg.ClientConfig["ssl"] {
  switch (mode) {
    case null:
    case "disable":
      return undefined;
    case "no-verify":
      return { rejectUnauthorized: false };
    default:
      return true;
  }
}

/**
 * Parses a postgres:// URL into separate fields. Separate fields matter: node-postgres lets a
 * `connectionString` override `database`, so a copy pointed at a shadow database would still
 * reach the main one.
 */
export function parseDatabaseUrl(databaseUrl: string): PgTarget {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    throw new Error("database URL is not a valid URL");
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new Error(`database URL must start with postgres:// (got ${url.protocol}//)`);
  }
  const query = url.searchParams;
  const host = query.get("host") ?? (decodeURIComponent(url.hostname).replace(/^\[(.*)\]$/, "$1") || "localhost");
  const port = Number(query.get("port") ?? (url.port || 5432));
  const database = decodeURIComponent(url.pathname.replace(/^\//, ""));
  const config: pg.ClientConfig = {
    host,
    port,
    user: decodeURIComponent(url.username) || undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    database: database || undefined,
    ssl: sslFromMode(query.get("sslmode")),
    application_name: query.get("application_name") ?? "prisma-migrate-wasm",
  };
  const timeout = query.get("connect_timeout");
  if (timeout) config.connectionTimeoutMillis = Number(timeout) * 1000;
  return { config, schema: query.get("schema") ?? undefined };
}

/** The same server and credentials, another database. */
export function withDatabase(target: PgTarget, database: string): PgTarget {
  return { config: { ...target.config, database }, schema: target.schema };
}

/** Double-quotes a PostgreSQL identifier. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

// The pg adapter has no mapping for PostgreSQL's one-byte "char" type (OID 18) and throws on any
// result that contains it, yet the engine's introspection selects such catalog columns
// (pg_constraint.contype and others). Results are retyped to text (OID 25) so the adapter accepts
// them, and the affected column positions are remembered by the identity of the rows array (the
// adapter returns pg's array as is) so the column can be reported as a character afterwards: the
// engine reads contype with a char-only getter and panics on a text value. That matters from
// PostgreSQL 18 on, whose NOT NULL constraints show up in that query. name (OID 19) gets the same
// text treatment; this adapter version already maps it, earlier ones did not.
const CHAR_OID = 18;
const NAME_OID = 19;
const TEXT_OID = 25;
const charColumnsByRows = new WeakMap<object, number[]>();

function retypeFields(result: unknown): unknown {
  for (const one of Array.isArray(result) ? result : [result]) {
    const { fields, rows } = (one ?? {}) as { fields?: unknown; rows?: unknown };
    if (!Array.isArray(fields)) continue;
    const charColumns: number[] = [];
    (fields as { dataTypeID: number }[]).forEach((field, index) => {
      if (field.dataTypeID === CHAR_OID) charColumns.push(index);
      if (field.dataTypeID === CHAR_OID || field.dataTypeID === NAME_OID) field.dataTypeID = TEXT_OID;
    });
    if (charColumns.length > 0 && Array.isArray(rows)) charColumnsByRows.set(rows, charColumns);
  }
  return result;
}

function restoreCharColumns(resultSet: SqlResultSet): SqlResultSet {
  for (const index of charColumnsByRows.get(resultSet.rows) ?? []) {
    resultSet.columnTypes[index] = ColumnTypeEnum.Character;
  }
  return resultSet;
}

type QueryFn = (...args: unknown[]) => unknown;

function retypeClientResults(client: pg.PoolClient): void {
  const original = client.query as unknown as QueryFn;
  const patched: QueryFn = function (this: unknown, ...args) {
    const last = args[args.length - 1];
    if (typeof last === "function") {
      args[args.length - 1] = (err: unknown, res: unknown) => (last as QueryFn)(err, err ? res : retypeFields(res));
      return original.apply(this, args);
    }
    const out = original.apply(this, args);
    return out instanceof Promise ? out.then(retypeFields) : out;
  };
  Object.defineProperty(client, "query", { value: patched, writable: true, configurable: true });
}

function charAwareTransaction(tx: Transaction): Transaction {
  const wrapped: Transaction = {
    provider: tx.provider,
    adapterName: tx.adapterName,
    options: tx.options,
    queryRaw: async (query) => restoreCharColumns(await tx.queryRaw(query)),
    executeRaw: (query) => tx.executeRaw(query),
    commit: () => tx.commit(),
    rollback: () => tx.rollback(),
  };
  if (tx.createSavepoint) wrapped.createSavepoint = tx.createSavepoint.bind(tx);
  if (tx.rollbackToSavepoint) wrapped.rollbackToSavepoint = tx.rollbackToSavepoint.bind(tx);
  if (tx.releaseSavepoint) wrapped.releaseSavepoint = tx.releaseSavepoint.bind(tx);
  return wrapped;
}

function driverError(error: unknown): unknown {
  if (!(error instanceof pg.DatabaseError)) return error;
  return new DriverAdapterError({
    kind: "postgres",
    code: error.code ?? "N/A",
    severity: error.severity ?? "N/A",
    message: error.message,
    detail: error.detail,
    column: error.column,
    hint: error.hint,
    originalCode: error.code,
    originalMessage: error.message,
  });
}

/**
 * The pg adapter as the engine should see it: "char" columns reported as characters, and scripts
 * run whole. The stock executeScript splits on every ";" (breaking semicolons inside strings,
 * comments and $$ bodies) and spreads the pieces over pooled connections; one simple-protocol
 * query runs the script as one implicit transaction instead, as the native engine does, so a
 * failing migration leaves nothing half-applied.
 */
function migrationAdapter(adapter: SqlDriverAdapter, pool: pg.Pool): SqlDriverAdapter {
  const wrapped: SqlDriverAdapter = {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: async (query) => restoreCharColumns(await adapter.queryRaw(query)),
    executeRaw: (query) => adapter.executeRaw(query),
    startTransaction: async (isolationLevel) => charAwareTransaction(await adapter.startTransaction(isolationLevel)),
    dispose: () => adapter.dispose(),
    executeScript: async (script) => {
      if (script.trim() === "") return;
      try {
        await pool.query(script);
      } catch (error) {
        throw driverError(error);
      }
    },
  };
  const info = adapter.getConnectionInfo?.bind(adapter);
  if (info) wrapped.getConnectionInfo = info;
  return wrapped;
}

/** An adapter factory for the engine, plus `close()` that ends every pool it opened. */
export interface EngineAdapter {
  factory: ErrorCapturingSqlMigrationAwareDriverAdapterFactory;
  close(): Promise<void>;
}

/** Builds the migration-aware pg adapter factory for `main`, with `shadow` as its shadow database. */
export function createEngineAdapter(main: PgTarget, shadow?: PgTarget): EngineAdapter {
  const pools = new Set<pg.Pool>();
  const closed: Promise<unknown>[] = [];

  const connectTo = async (target: PgTarget): Promise<SqlDriverAdapter> => {
    const options = target.schema ? `-c search_path=${quoteIdent(target.schema)}` : undefined;
    // close() ends the pools; the short idle timeout only trims connections the engine stops using.
    // No allowExitOnIdle: it unrefs idle sockets, and the process could then exit while close()
    // is still waiting for them to shut.
    const pool = new pg.Pool({ ...target.config, options, max: 4, idleTimeoutMillis: 250 });
    pool.on("connect", (client) => {
      retypeClientResults(client);
      // pool.end() resolves once clients are handed their end(), not once their sockets are closed;
      // close() waits for these so a DROP DATABASE right after does not race live sessions.
      closed.push(new Promise((resolve) => client.once("end", resolve)));
      // A client the pool has already let go of has no 'error' listener left; a server-side
      // termination then would be an uncaught exception. Queries in flight still reject.
      client.on("error", () => undefined);
    });
    pool.on("error", () => undefined);
    pools.add(pool);
    const factory = new PrismaPg(pool, { schema: target.schema, disposeExternalPool: false });
    return migrationAdapter(await factory.connect(), pool);
  };

  const factory = bindMigrationAwareSqlAdapterFactory({
    provider: "postgres",
    adapterName: "@prisma/adapter-pg",
    connect: () => connectTo(main),
    connectToShadowDb: () => {
      if (!shadow) return Promise.reject(new Error("no shadow database was prepared for this operation"));
      return connectTo(shadow);
    },
  });

  return {
    factory,
    async close() {
      const open = [...pools].filter((pool) => !pool.ending);
      pools.clear();
      await Promise.allSettled(open.map((pool) => pool.end()));
      await waitAtMost(Promise.all(closed.splice(0)), 5_000);
    },
  };
}

import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../../generated/prisma/client.ts";
import { ZDatabaseUrl } from "./config";

export type Db = InstanceType<typeof PrismaClient>;
export { Prisma } from "../../generated/prisma/client.ts";

/** Builds a Prisma client on the pg driver adapter (no native query engine). */
export function createDb(url: string, options: { max?: number } = {}): Db {
  const adapter = new PrismaPg({
    connectionString: url,
    max: options.max ?? Number(process.env.DB_POOL_MAX ?? 10),
    idleTimeoutMillis: 30_000,
  });
  return new PrismaClient({ adapter });
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
}

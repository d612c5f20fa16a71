import net from "node:net";
import type { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { testDb, uid } from "@/test/helpers";
import { copyOut, createDb, Prisma, sqlRows } from "./db";

const db = testDb();
afterAll(() => db.$disconnect());

describe("sqlRows", () => {
  it("reads a row as Prisma does, timestamps as UTC, on sessions in UTC", async () => {
    const user = await db.user.create({ data: { email: `${uid("sql")}@example.test`, name: "Sql Rows" } });
    const sql = Prisma.sql`SELECT id, email, name, created_at AS "createdAt", current_setting('TimeZone') AS tz FROM users WHERE id = ${user.id}`;
    const [direct] = await sqlRows<{ id: string; email: string; name: string; createdAt: Date; tz: string }>(db, sql);
    const [viaPrisma] = await db.$queryRaw<{ createdAt: Date; tz: string }[]>(sql);
    expect(direct?.createdAt).toBeInstanceOf(Date);
    expect(direct?.createdAt.toISOString()).toBe(user.createdAt.toISOString());
    expect(viaPrisma?.createdAt.toISOString()).toBe(user.createdAt.toISOString());
    expect(direct?.tz).toBe("UTC");
    expect(viaPrisma?.tz).toBe("UTC");
    // now() written into a `timestamp` column by SQL is read back as the same instant.
    const before = Date.now();
    const [stamped] = await sqlRows<{ updatedAt: Date }>(
      db,
      Prisma.sql`UPDATE users SET updated_at = now() WHERE id = ${user.id} RETURNING updated_at AS "updatedAt"`,
    );
    expect(Math.abs((stamped?.updatedAt.getTime() ?? 0) - before)).toBeLessThan(5_000);
  });

  it("runs inside a transaction on that transaction", async () => {
    const email = `${uid("tx")}@example.test`;
    await expect(
      db.$transaction(async (tx) => {
        await tx.user.create({ data: { email } });
        const rows = await sqlRows<{ n: number }>(
          tx,
          Prisma.sql`SELECT count(*)::int AS n FROM users WHERE email = ${email}`,
        );
        expect(rows[0]?.n).toBe(1);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await db.user.count({ where: { email } })).toBe(0);
  });
});

/** A loopback TCP proxy to the test database whose open connections can be cut from either side. */
async function cuttableProxy() {
  const target = new URL(process.env.DATABASE_URL!);
  const pairs = new Set<[net.Socket, net.Socket]>();
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: target.hostname, port: Number(target.port) });
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    client.pipe(upstream).pipe(client);
    for (const s of pair) s.on("error", () => {});
    client.on("close", () => (upstream.destroy(), pairs.delete(pair)));
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(target);
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    /** Ends every connection as a server that went away would: FIN (no error message) or RST. */
    cut(how: "fin" | "rst") {
      for (const [client, upstream] of pairs) {
        upstream.unpipe(client);
        upstream.destroy();
        if (how === "fin") client.end();
        else client.resetAndDestroy();
      }
    },
    /** Stops listening and ends what is still open (a pool Prisma never used is not ended by $disconnect). */
    close: () =>
      new Promise<void>(
        (resolve) => (server.close(() => resolve()), pairs.forEach((pair) => pair.forEach((s) => s.destroy()))),
      ),
  };
}

/** Reads a stream to its end; resolves "ended" or rejects with its error. */
async function drain(stream: Readable): Promise<string> {
  for await (const _chunk of stream) void _chunk;
  return "ended";
}

describe("copyOut", () => {
  for (const how of ["fin", "rst"] as const) {
    it(`fails the copy, and nothing else, when the connection drops mid-copy (${how})`, async () => {
      const proxy = await cuttableProxy();
      const viaProxy = createDb(proxy.url, { max: 2 });
      const uncaught: unknown[] = [];
      const onUncaught = (error: unknown) => uncaught.push(error);
      process.on("uncaughtException", onUncaught);
      try {
        await viaProxy.$queryRaw`SELECT 1`;
        // 100 MB: far more than the socket buffers hold, so the copy is mid-stream when the connection is cut.
        const copy = await copyOut(
          viaProxy,
          "COPY (SELECT repeat('x', 1000) FROM generate_series(1, 100000)) TO STDOUT",
        );
        const first = await new Promise<Buffer>((resolve) => copy.once("data", resolve));
        expect(first.length).toBeGreaterThan(0);
        copy.pause();
        proxy.cut(how);
        await new Promise((resolve) => setTimeout(resolve, 200));
        await expect(drain(copy)).rejects.toThrow();
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(uncaught).toEqual([]);
        // The pool opens a new connection for the next query.
        expect(await viaProxy.$queryRaw<{ n: number }[]>`SELECT 2::int AS n`).toEqual([{ n: 2 }]);
      } finally {
        process.off("uncaughtException", onUncaught);
        await viaProxy.$disconnect();
        await proxy.close();
      }
    });
  }

  it("keeps the process up when an idle connection drops before Prisma ever ran a query", async () => {
    const proxy = await cuttableProxy();
    const viaProxy = createDb(proxy.url, { max: 2 });
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on("uncaughtException", onUncaught);
    try {
      // sqlRows goes straight to the pool: the connection is idle in it afterwards.
      expect(await sqlRows<{ n: number }>(viaProxy, Prisma.sql`SELECT 3::int AS n`)).toEqual([{ n: 3 }]);
      proxy.cut("rst");
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(uncaught).toEqual([]);
      expect(await sqlRows<{ n: number }>(viaProxy, Prisma.sql`SELECT 4::int AS n`)).toEqual([{ n: 4 }]);
    } finally {
      process.off("uncaughtException", onUncaught);
      await viaProxy.$disconnect();
      await proxy.close();
    }
  });
});

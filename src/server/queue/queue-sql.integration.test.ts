import { afterAll, describe, expect, it } from "vitest";
import { Prisma } from "@/server/core/db";
import { uuidv7 } from "@/server/core/ids";
import { testDb } from "@/test/helpers";
import { makeDeps } from "@/test/review-fixtures";
import { QUEUES } from "./queues";
import { completeQueueRow, deletePendingQueueRow, insertQueueRows, takeQueueRowCtes } from "./sql";

const db = testDb();
afterAll(() => db.$disconnect());

const SETTINGS = `retry_limit, retry_delay, retry_backoff, expire_in::text AS expire_in, dead_letter, policy, priority, state::text AS state,
  (keep_until - start_after)::text AS kept_for, singleton_key, singleton_on`;

describe("queue rows written in the product's statements (pg-boss 10's table)", () => {
  it.each([QUEUES.scrape, QUEUES.callback])("a row inserted on %s is the row boss.insert writes, and pg-boss runs it", async (queue) => {
    const deps = await makeDeps(db);
    try {
      const schema = deps.settings.QUEUE_SCHEMA;
      const boss = deps.handle;
      const theirs = uuidv7();
      const ours = uuidv7();
      await boss.insert([{ id: theirs, name: queue, data: { n: 1 }, priority: 3 }]);
      const at = new Date();
      await db.$executeRaw(
        insertQueueRows(schema, queue, Prisma.sql`SELECT ${ours}::uuid, ${JSON.stringify({ n: 1 })}::jsonb, 3, ${at}::timestamptz`),
      );
      const read = (id: string) => db.$queryRawUnsafe<Record<string, unknown>[]>(`SELECT ${SETTINGS} FROM "${schema}".job WHERE id = $1::uuid`, id);
      const [a] = await read(theirs);
      const [b] = await read(ours);
      expect(a).toBeDefined();
      expect(b).toEqual(a);

      // pg-boss fetches and completes the row like its own.
      const fetched = await boss.fetch<{ n: number }>(queue, { batchSize: 10 });
      expect(fetched.map((j) => j.id).sort()).toEqual([theirs, ours].sort());
      expect(fetched.find((j) => j.id === ours)?.data).toEqual({ n: 1 });
      const done = await db.$executeRaw(completeQueueRow(schema, queue, Prisma.sql`${ours}::uuid`));
      expect(done).toBe(1);
      expect((await boss.getJobById(queue, ours))?.state).toBe("completed");
    } finally {
      await deps.stop();
    }
  });

  it("deletes a row only while it has not started", async () => {
    const deps = await makeDeps(db);
    try {
      const schema = deps.settings.QUEUE_SCHEMA;
      const waiting = uuidv7();
      const later = new Date(Date.now() + 60_000);
      await db.$executeRaw(insertQueueRows(schema, QUEUES.callback, Prisma.sql`SELECT ${waiting}::uuid, '{}'::jsonb, 0, ${later}::timestamptz`));
      const running = uuidv7();
      await db.$executeRaw(insertQueueRows(schema, QUEUES.callback, Prisma.sql`SELECT ${running}::uuid, '{}'::jsonb, 0, now()`));
      expect((await deps.handle.fetch(QUEUES.callback)).map((j) => j.id)).toEqual([running]);
      expect(await db.$executeRaw(deletePendingQueueRow(schema, QUEUES.callback, Prisma.sql`${running}::uuid`))).toBe(0);
      expect(await db.$executeRaw(deletePendingQueueRow(schema, QUEUES.callback, Prisma.sql`${waiting}::uuid`))).toBe(1);
      expect(await deps.handle.getJobById(QUEUES.callback, waiting)).toBeNull();
    } finally {
      await deps.stop();
    }
  });

  it("takes due rows highest priority first, then oldest, skips held and future rows, and counts a retry as pg-boss does", async () => {
    const deps = await makeDeps(db);
    try {
      const schema = deps.settings.QUEUE_SCHEMA;
      const take = async () => {
        const [row] = await db.$queryRaw<{ id: string; data: { n: number } }[]>`
          WITH ${takeQueueRowCtes(schema, QUEUES.scrape)}
          SELECT id::text AS id, data FROM queue_row`;
        if (!row) return undefined;
        // The row as the statement left it (a statement's own reads see the table before its updates).
        const [after] = await db.$queryRawUnsafe<{ retry_count: number; state: string }[]>(
          `SELECT retry_count, state::text AS state FROM "${schema}".job WHERE id = $1::uuid`,
          row.id,
        );
        return { ...row, ...after };
      };
      const add = (n: number, priority: number, startAfter = Prisma.sql`now() - interval '1 second'`) =>
        db.$executeRaw(insertQueueRows(schema, QUEUES.scrape, Prisma.sql`SELECT ${uuidv7()}::uuid, ${JSON.stringify({ n })}::jsonb, ${priority}::int, ${startAfter}`));
      // The index a take reads in order (ensureQueues makes it on the partitioned table).
      const indexes = await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM pg_indexes WHERE schemaname = ${schema} AND indexname = 'job_take_order'`;
      expect(Number(indexes[0]?.n)).toBe(1);
      await add(1, 1);
      await add(2, 9);
      await add(3, 1);
      await add(4, 10, Prisma.sql`now() + interval '1 hour'`);
      await add(5, 5);
      const order: number[] = [];
      for (let i = 0; i < 4; i++) order.push((await take())?.data.n ?? 0);
      // 4 is not due; equal priorities go oldest first; nothing is taken twice.
      expect(order).toEqual([2, 5, 1, 3]);
      expect(await take()).toBeUndefined();

      // A failed row comes back as a retry; taken again it counts one retry.
      const [first] = await db.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM ${Prisma.raw(`"${schema}".job`)} WHERE name = ${QUEUES.scrape} AND data->>'n' = '1'`;
      await deps.handle.fail(QUEUES.scrape, first!.id, { message: "transient" });
      await db.$executeRawUnsafe(`UPDATE "${schema}".job SET start_after = now() - interval '1 second' WHERE id = $1::uuid`, first!.id);
      const again = await take();
      expect(again).toMatchObject({ id: first!.id, retry_count: 1, state: "active" });
    } finally {
      await deps.stop();
    }
  });
});

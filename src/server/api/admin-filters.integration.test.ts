import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, makeMesh, makeUser } from "@/test/mesh-fixtures";
import { testDb, uid } from "@/test/helpers";
import { restAs } from "@/test/rest";
import { adminViews, type AdminTable } from "@/server/services/admin/view-params";
import { adminCsvResponse } from "./admin-csv";
import { createCaller } from "./root";
import { createContext, type SessionUser } from "./trpc";

// Every filter of every admin page, read three ways: the page's data source (the page's URL through
// adminViews into the admin procedure, as src/app/[locale]/admin/* do), the CSV route's answer and the
// REST answer. The three must hold the same rows, and the filter must narrow them (a filter that is
// dropped on the way, as the audit search once was, fails here).

const db = testDb();
afterAll(() => db.$disconnect());
let admin: SessionUser;
const as = (user: SessionUser) => createCaller(createContext({ user, db }));

type Read = (input: unknown) => Promise<{ items: { id: unknown }[]; total: number }>;

/** The page's data source: its URL read by adminViews, handed to the procedure the page calls. */
const pageData = (table: AdminTable, query: Record<string, string>) =>
  (as(admin).admin[table] as Read)(adminViews[table]({ ...query, pageSize: "100" }).input);

/** The ids of a view: the page's rows, the CSV's rows and the REST answer's rows. */
async function threeWays(table: AdminTable, query: Record<string, string>, restQuery = query) {
  const caller = as(admin);
  const page = await pageData(table, query);
  const csvRes = await adminCsvResponse(caller, table, new URLSearchParams(query));
  expect(csvRes.status).toBe(200);
  const csvLines = (await csvRes.text())
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n")
    .slice(1);
  const csv = csvLines.filter(Boolean).map((line) => line.split(",")[0]);
  const rest = await restAs(
    db,
    admin,
    "GET",
    `/admin/${table}?${new URLSearchParams({ ...restQuery, pageSize: "100" })}`,
  );
  expect(rest.status).toBe(200);
  const restIds = (rest.json.items as { id: unknown }[]).map((r) => String(r.id));
  const pageIds = page.items.map((r) => String(r.id));
  return { page: pageIds.sort(), csv: csv.sort(), rest: restIds.sort(), total: page.total };
}

/** Asserts the three readings agree, that the filter narrowed the unfiltered view, and returns the ids. */
async function agree(
  table: AdminTable,
  base: Record<string, string>,
  filter: Record<string, string>,
  rest?: Record<string, string>,
) {
  const all = await pageData(table, base);
  const got = await threeWays(table, { ...base, ...filter }, rest ? { ...base, ...rest } : undefined);
  expect(got.csv).toEqual(got.page);
  expect(got.rest).toEqual(got.page);
  expect(got.total).toBe(got.page.length);
  expect(got.page.length).toBeGreaterThan(0);
  expect(got.total).toBeLessThan(all.total);
  return got.page;
}

beforeAll(async () => {
  admin = await makeUser(db, { admin: true });
});

describe("admin filters: the page, its CSV and the REST answer agree", () => {
  it("meshes: q, visibility, transport, tier, archived", async () => {
    const owner = await makeUser(db);
    const tag = uid("flt").toLowerCase();
    const a = await makeMesh(db, owner, `${tag} alpha`);
    const b = await makeMesh(db, owner, `${tag} beta`);
    await makeMesh(db, owner, `${tag} gamma`);
    await makeMesh(db, owner, "decoy"); // a mesh the search must leave out
    await db.mesh.update({
      where: { id: b.id },
      data: { visibility: "public", transport: "direct", tier: "pro", archivedAt: new Date() },
    });
    // q alone narrows the whole table to the tag; q plus the word narrows further.
    expect(await agree("meshes", {}, { q: tag })).toHaveLength(3);
    expect(await agree("meshes", { q: tag }, { q: `${tag} alpha` })).toEqual([a.id]);
    expect(await agree("meshes", { q: tag }, { visibility: "public" })).toEqual([b.id]);
    expect(await agree("meshes", { q: tag }, { transport: "direct" })).toEqual([b.id]);
    expect(await agree("meshes", { q: tag }, { tier: "pro" })).toEqual([b.id]);
    expect(await agree("meshes", { q: tag }, { archived: "yes" })).toEqual([b.id]);
    expect(await agree("meshes", { q: tag }, { archived: "no" })).toHaveLength(2);
  });

  it("sessions: q, status", async () => {
    const owner = await makeUser(db);
    const tag = uid("ses").toLowerCase();
    const mesh = await makeMesh(db, owner, `${tag} mesh`);
    const member = await addMember(db, mesh.id, await makeUser(db, { name: `${tag}-peer` }));
    const other = await addMember(db, mesh.id, await makeUser(db, { name: "someone" }));
    const presence = (memberId: string, gone: boolean) =>
      db.presence.create({
        data: {
          meshId: mesh.id,
          memberId,
          nodeId: "n1",
          connectionId: randomUUID(),
          disconnectedAt: gone ? new Date() : null,
        },
      });
    const p1 = await presence(member.id, false);
    const p2 = await presence(member.id, true);
    await presence(other.id, false);
    expect(await agree("sessions", { q: mesh.slug }, { q: `${tag}-peer` })).toEqual([p1.id, p2.id].sort());
    expect(await agree("sessions", { q: `${tag}-peer` }, { status: "active" })).toEqual([p1.id]);
    expect(await agree("sessions", { q: `${tag}-peer` }, { status: "disconnected" })).toEqual([p2.id]);
  });

  it("invites: q, revoked, expired", async () => {
    const owner = await makeUser(db);
    const mesh = await makeMesh(db, owner);
    const invite = (opts: { revoked?: boolean; expired?: boolean }) =>
      db.invite.create({
        data: {
          token: uid("tok"),
          meshId: mesh.id,
          createdByUserId: owner.id,
          expiresAt: new Date(Date.now() + (opts.expired ? -1 : 1) * 86_400_000),
          revokedAt: opts.revoked ? new Date() : null,
        },
      });
    await db.invite.create({
      data: {
        token: uid("tok"),
        meshId: (await makeMesh(db, owner)).id, // another mesh's invite: the search leaves it out
        createdByUserId: owner.id,
        expiresAt: new Date(Date.now() + 86_400_000),
      },
    });
    const plain = await invite({});
    const revoked = await invite({ revoked: true });
    const expired = await invite({ expired: true });
    expect(await agree("invites", {}, { q: mesh.slug })).toHaveLength(3);
    expect(await agree("invites", { q: mesh.slug }, { revoked: "yes" })).toEqual([revoked.id]);
    expect(await agree("invites", { q: mesh.slug }, { revoked: "no" })).toEqual([plain.id, expired.id].sort());
    expect(await agree("invites", { q: mesh.slug }, { expired: "yes" })).toEqual([expired.id]);
    expect(await agree("invites", { q: mesh.slug }, { expired: "no" })).toEqual([plain.id, revoked.id].sort());
  });

  it("audit: q, eventType, meshId, from, to", async () => {
    const owner = await makeUser(db);
    const tag = uid("aud").toLowerCase();
    const mine = await makeMesh(db, owner, `${tag} mine`);
    const theirs = await makeMesh(db, owner, `${tag} theirs`);
    const event = (meshId: string, eventType: "message_sent" | "member_joined", day: string) =>
      db.auditEvent.create({ data: { meshId, eventType, createdAt: new Date(`${day}T12:00:00Z`) } });
    const e1 = await event(mine.id, "message_sent", "2001-02-03");
    const e2 = await event(mine.id, "member_joined", "2001-02-04");
    const e3 = await event(theirs.id, "message_sent", "2001-02-05");
    const ids = (...events: { id: bigint }[]) => events.map((e) => String(e.id)).sort();
    // The search alone: nonsense finds nothing at all, the tag finds the two meshes' events only.
    const nonsense = await threeWays("audit", { q: `zz-${tag}-nothing` });
    expect(nonsense).toMatchObject({ page: [], csv: [], rest: [], total: 0 });
    const tagged = await agree("audit", {}, { q: tag });
    expect(tagged).toEqual(expect.arrayContaining(ids(e1, e2, e3)));
    const inRange = { q: tag, from: "2001-02-03", to: "2001-02-05" };
    const restRange = { q: tag, from: "2001-02-03T00:00:00.000Z", to: "2001-02-06T00:00:00.000Z" };
    expect(await agree("audit", { q: tag }, inRange, restRange)).toEqual(ids(e1, e2, e3));
    expect(await agree("audit", inRange, { q: `${tag} mine` }, { ...restRange, q: `${tag} mine` })).toEqual(
      ids(e1, e2),
    );
    expect(
      await agree("audit", inRange, { eventType: "message_sent" }, { ...restRange, eventType: "message_sent" }),
    ).toEqual(ids(e1, e3));
    expect(await agree("audit", inRange, { meshId: theirs.id }, { ...restRange, meshId: theirs.id })).toEqual(ids(e3));
    expect(
      await agree("audit", inRange, { from: "2001-02-04" }, { ...restRange, from: "2001-02-04T00:00:00.000Z" }),
    ).toEqual(ids(e2, e3));
    // `to` is the last day shown, inclusive on the page and in the CSV; the REST `to` is exclusive.
    expect(
      await agree("audit", inRange, { to: "2001-02-04" }, { ...restRange, to: "2001-02-05T00:00:00.000Z" }),
    ).toEqual(ids(e1, e2));
  });
});

// The engine's list pages call the engine procedures straight from the browser with their filter state
// (jobs-table.tsx, batches-table.tsx); they have no CSV of their own (the review exports take no
// filters). The page's call and REST must agree, and each filter must narrow.
describe("engine list filters: the page's call and the REST answer agree", () => {
  type Ids = { items: { id: string }[]; total: number };
  async function both(path: "jobs" | "batches", input: Record<string, string>) {
    const caller = as(admin);
    const page = (await (caller.scrape[path] as (i: unknown) => Promise<Ids>)({ ...input, pageSize: 100 })) as Ids;
    const rest = await restAs(db, admin, "GET", `/${path}?${new URLSearchParams({ ...input, pageSize: "100" })}`);
    expect(rest.status).toBe(200);
    const ids = page.items.map((r) => r.id).sort();
    expect((rest.json.items as { id: string }[]).map((r) => r.id).sort()).toEqual(ids);
    return { ids, total: page.total };
  }

  it("jobs: q, status, batch_id; batches: q, status", async () => {
    const client = uid("eng").toLowerCase();
    const batch = await db.batch.create({ data: { requesterClientId: client, totalJobs: 2, name: `${client} one` } });
    await db.batch.create({ data: { requesterClientId: client, totalJobs: 1, status: "completed" } });
    const job = (status: "queued" | "succeeded" | "cancelled", batchId?: string) =>
      db.job.create({ data: { requesterClientId: client, status, ...(batchId ? { batchId } : {}) } });
    const j1 = await job("queued", batch.id);
    const j2 = await job("cancelled", batch.id);
    const j3 = await job("succeeded");
    await db.job.create({ data: { requesterClientId: `decoy-${client}`.slice(0, 5) } }); // another client
    const all = await both("jobs", {});
    const mine = await both("jobs", { q: client });
    expect(mine.ids).toEqual([j1.id, j2.id, j3.id].sort());
    expect(mine.total).toBeLessThan(all.total);
    expect((await both("jobs", { q: client, status: "cancelled" })).ids).toEqual([j2.id]);
    expect((await both("jobs", { q: client, batch_id: batch.id })).ids).toEqual([j1.id, j2.id].sort());
    const batches = await both("batches", { q: client });
    expect(batches.ids).toHaveLength(2);
    expect((await both("batches", { q: `${client}-nothing` })).ids).toEqual([]);
    expect((await both("batches", { q: client, status: "queued" })).ids).toEqual([batch.id]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/server/core/errors";
import { syncRegistry } from "@/server/pipelines/registry";
import { recentEngineActivity } from "@/server/services/home/recent-engine-activity";
import { addMember, ctxOf, makeMesh, makeUser } from "@/test/mesh-fixtures";
import { collectedJob, reviewsOf } from "@/test/pipeline-fixtures";
import { testDb, uid } from "@/test/helpers";
import { createCaller } from "../root";
import { createContext, type SessionUser } from "../trpc";
import { trpcOutcome } from "@/test/rejection";

const db = testDb();
afterAll(() => db.$disconnect());
beforeAll(() => syncRegistry(db));
const as = (user: SessionUser | null) => createCaller(createContext({ user, db }));

const codeOf = (p: Promise<unknown>) => trpcOutcome(p, false);

/** A command-line peer of the mesh with one connection: open (online) or closed. */
async function peer(meshId: string, open: boolean, opts: { revoked?: boolean } = {}) {
  const member = await db.member.create({
    data: { meshId, displayName: uid("peer"), peerPubkey: uid("pk"), revokedAt: opts.revoked ? new Date() : null },
  });
  await db.presence.create({
    data: {
      meshId,
      memberId: member.id,
      nodeId: "n",
      connectionId: uid("c"),
      disconnectedAt: open ? null : new Date(),
    },
  });
  return member;
}

describe("my.homeMeshes", () => {
  it("lists only the user's meshes, with their role and members online of all live members", async () => {
    const [me, other] = [await makeUser(db), await makeUser(db)];
    const owned = await makeMesh(db, me, "Mine");
    const joined = await makeMesh(db, other, "Joined");
    await addMember(db, joined.id, me, { role: "observer" });
    const left = await makeMesh(db, other, "Left");
    await addMember(db, left.id, me, { revoked: true });
    const strangers = await makeMesh(db, other, "Not mine");
    // Online: a peer with an open connection; not a closed one, nor a revoked peer still connected.
    await peer(owned.id, true);
    await peer(owned.id, false);
    await peer(owned.id, true, { revoked: true });
    await peer(strangers.id, true);

    const mine = await as(me).my.homeMeshes({});
    expect(mine.total).toBe(2);
    expect(mine.items).toEqual([
      {
        id: owned.id,
        name: "Mine",
        slug: owned.slug,
        archived: false,
        isOwner: true,
        myRole: "owner",
        online: 1,
        people: 3,
      },
      {
        id: joined.id,
        name: "Joined",
        slug: joined.slug,
        archived: false,
        isOwner: false,
        myRole: "observer",
        online: 0,
        people: 2,
      },
    ]);
    const ids = new Set((await as(other).my.homeMeshes({})).items.map((m) => m.id));
    expect([...ids].sort()).toEqual([joined.id, left.id, strangers.id].sort());
    expect((await as(await makeUser(db)).my.homeMeshes({})).items).toEqual([]);
  });

  it("puts meshes with people online first, caps the list at `limit` and counts them all", async () => {
    const me = await makeUser(db);
    const quiet = await makeMesh(db, me, "Quiet");
    const busy = await makeMesh(db, me, "Busy");
    const newest = await makeMesh(db, me, "Newest");
    await peer(busy.id, true);
    await peer(busy.id, true);
    await peer(quiet.id, true);
    const list = await as(me).my.homeMeshes({ limit: 2 });
    expect(list.total).toBe(3);
    expect(list.items.map((m) => [m.name, m.online])).toEqual([
      ["Busy", 2],
      ["Quiet", 1],
    ]);
    expect((await as(me).my.homeMeshes({})).items.map((m) => m.id)).toEqual([busy.id, quiet.id, newest.id]);
  });

  it("answers a client's mistake with BAD_REQUEST and a signed-out caller with UNAUTHORIZED, never a 500", async () => {
    const me = await makeUser(db);
    for (const limit of [0, 13, 1.5, "many"])
      expect(await codeOf(as(me).my.homeMeshes({ limit } as never)), String(limit)).toBe("BAD_REQUEST");
    expect(await codeOf(as(null).my.homeMeshes({}))).toBe("UNAUTHORIZED");
  });
});

describe("admin.homeEngine", () => {
  it("is FORBIDDEN to a signed-in user who is not an administrator, in the procedure and in the service", async () => {
    const user = await makeUser(db);
    await makeMesh(db, user);
    expect(await codeOf(as(user).admin.homeEngine())).toBe("FORBIDDEN");
    expect(await codeOf(as(null).admin.homeEngine())).toBe("UNAUTHORIZED");
    await expect(recentEngineActivity(ctxOf(db, user))).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "admin_only",
    });
    await expect(recentEngineActivity(ctxOf(db, user))).rejects.toBeInstanceOf(AppError);
  });

  it("gives an administrator the newest jobs with their place and the newest pipeline runs, five each", async () => {
    const admin = await makeUser(db, { admin: true });
    const placeKey = uid("home-place");
    const job = await collectedJob(db, {
      apiKeyId: null,
      placeKey,
      placeName: "Café Home",
      reviews: reviewsOf(placeKey, 3),
    });
    const run = await db.pipelineExecution.create({
      data: {
        pipelineId: "review-analytics",
        pipelineVersion: "1.0.0",
        input: { place_key: placeKey },
        status: "succeeded",
        reviewCount: 3,
        places: [{ place_key: placeKey, origin: "http://127.0.0.1:4200", name: "Café Home", reviews: 3 }],
        triggeredByUserId: admin.id,
        finishedAt: new Date(),
      },
    });
    const engine = await as(admin).admin.homeEngine();
    expect(engine.jobs.length).toBeLessThanOrEqual(5);
    expect(engine.executions.length).toBeLessThanOrEqual(5);
    // Other tests may add rows at the same time: this test's own rows are among the newest.
    expect(engine.jobs.find((j) => j.id === job.id)).toMatchObject({
      status: "succeeded",
      place: { name: "Café Home", key: placeKey },
      reviewCount: 3,
    });
    expect(engine.executions.find((e) => e.id === run.id)).toMatchObject({
      pipelineId: "review-analytics",
      pipelineName: expect.any(String),
      status: "succeeded",
      places: [{ name: "Café Home", key: placeKey }],
      reviewCount: 3,
    });
    // A whitelist: nothing of the job's callbacks or the run's input, result or report.
    expect(Object.keys(engine.jobs[0] ?? {}).sort()).toEqual([
      "createdAt",
      "finishedAt",
      "id",
      "place",
      "platform",
      "reviewCount",
      "status",
    ]);
    expect(Object.keys(engine.executions[0] ?? {}).sort()).toEqual([
      "createdAt",
      "finishedAt",
      "id",
      "pipelineId",
      "pipelineName",
      "places",
      "reviewCount",
      "status",
    ]);
  });
});

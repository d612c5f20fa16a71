// Who is online, counted as people by one rule (people-online.ts), as the home page (`my.homeMeshes`) and
// the live page (`my.stream`) answer it, on real PostgreSQL with members of every kind.
import { afterAll, describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/root";
import { createContext, type SessionUser } from "@/server/api/trpc";
import { SYSTEM } from "@/server/services/actor";
import { closeStalePresences } from "@/server/services/broker/peer-connection";
import { serviceContext } from "@/server/services/context";
import { addMember, makeMesh, makeUser } from "@/test/mesh-fixtures";
import { testDb, uid } from "@/test/helpers";

const db = testDb();
afterAll(() => db.$disconnect());
const as = (user: SessionUser) => createCaller(createContext({ user, db }));

type Kind = "browser device" | "command-line device" | "anonymous peer" | "session";

/** A member with a key: a device of `user` (browser or command line alike), an anonymous peer, or a session member of `parent`. */
async function keyed(
  meshId: string,
  kind: Kind,
  opts: { user?: SessionUser; parent?: { id: string; userId: string | null }; revoked?: boolean } = {},
) {
  return db.member.create({
    data: {
      meshId,
      displayName: `${kind} ${uid("n")}`,
      peerPubkey: uid("pk"),
      userId: opts.parent ? opts.parent.userId : (opts.user?.id ?? null),
      parentMemberId: opts.parent?.id ?? null,
      revokedAt: opts.revoked ? new Date() : null,
    },
  });
}

/** A connection of the member: open (a live presence) or closed. Returns its id, to close it later. */
async function connect(meshId: string, memberId: string, open = true) {
  const presence = await db.presence.create({
    data: { meshId, memberId, nodeId: "n", connectionId: uid("c"), disconnectedAt: open ? null : new Date() },
  });
  return presence.id;
}
const disconnect = (presenceId: string) =>
  db.presence.update({ where: { id: presenceId }, data: { disconnectedAt: new Date() } });

/** What the home page and the live page say for the mesh, as `online of people`. */
async function counts(viewer: SessionUser, meshId: string) {
  const home = (await as(viewer).my.homeMeshes({})).items.find((m) => m.id === meshId);
  const stream = await as(viewer).my.stream({ meshId });
  return { home: home && { online: home.online, people: home.people }, live: stream.people };
}

describe("people online", () => {
  it("counts two people watching in their browsers as 2 of 3, on the home page and on the live page", async () => {
    const [owner, pia, olga] = [await makeUser(db), await makeUser(db), await makeUser(db)];
    const mesh = await makeMesh(db, owner);
    await addMember(db, mesh.id, pia);
    await addMember(db, mesh.id, olga);
    // Three people, three key-less browser memberships: nobody is connected yet.
    expect(await counts(owner, mesh.id)).toEqual({
      home: { online: 0, people: 3 },
      live: { online: 0, total: 3 },
    });
    // The owner and Pia open the chat: each browser is a device of theirs with a connection.
    await connect(mesh.id, (await keyed(mesh.id, "browser device", { user: owner })).id);
    await connect(mesh.id, (await keyed(mesh.id, "browser device", { user: pia })).id);
    expect(await counts(pia, mesh.id)).toEqual({
      home: { online: 2, people: 3 },
      live: { online: 2, total: 3 },
    });
  });

  it("counts a person once across their members, anonymous peers one each with their sessions, and only live presences", async () => {
    const [owner, dev, agentUser, leaver, gone] = await Promise.all(
      ["Owner", "Dev", "Agent", "Leaver", "Gone"].map((name) => makeUser(db, { name })),
    );
    if (!owner || !dev || !agentUser || !leaver || !gone) throw new Error("users");
    const mesh = await makeMesh(db, owner);
    const m = mesh.id;

    // Dev: browser membership, a browser device and a command-line device, both connected: one person.
    await addMember(db, m, dev);
    const devBrowser = await connect(m, (await keyed(m, "browser device", { user: dev })).id);
    const devCli = await connect(m, (await keyed(m, "command-line device", { user: dev })).id);
    // Agent: a command-line device that is offline, and its session member (Claude Code) connected.
    const agentDevice = await keyed(m, "command-line device", { user: agentUser });
    await connect(m, agentDevice.id, false);
    const agentSession = await connect(m, (await keyed(m, "session", { parent: agentDevice })).id);
    // Anonymous peers: one connected with a connected session of its own (one person); one offline whose
    // session is connected (online through it); one that was connected once.
    const anonOne = await keyed(m, "anonymous peer");
    await connect(m, anonOne.id);
    await connect(m, (await keyed(m, "session", { parent: anonOne })).id);
    const anonTwo = await keyed(m, "anonymous peer");
    await connect(m, (await keyed(m, "session", { parent: anonTwo })).id);
    await connect(m, (await keyed(m, "anonymous peer")).id, false);
    // Leaver: a removed device still holding a presence row, and a live browser membership: counted, offline.
    await connect(m, (await keyed(m, "command-line device", { user: leaver, revoked: true })).id);
    await addMember(db, m, leaver);
    // Gone: only a removed device, and a removed anonymous peer: neither is anyone in the mesh any more.
    await connect(m, (await keyed(m, "command-line device", { user: gone, revoked: true })).id);
    await connect(m, (await keyed(m, "anonymous peer", { revoked: true })).id);

    // People: Owner, Dev, Agent, three anonymous peers, Leaver = 7; online: Dev, Agent, two anonymous = 4.
    expect(await counts(owner, m)).toEqual({ home: { online: 4, people: 7 }, live: { online: 4, total: 7 } });
    // The rows of the live page are still members (one per member), as before.
    expect((await as(owner).my.stream({ meshId: m })).membersTotal).toBe(12);

    // Presences going off: Dev stays online while either of his connections is open.
    await disconnect(devBrowser);
    expect(await counts(owner, m)).toEqual({ home: { online: 4, people: 7 }, live: { online: 4, total: 7 } });
    await disconnect(devCli);
    expect(await counts(owner, m)).toEqual({ home: { online: 3, people: 7 }, live: { online: 3, total: 7 } });
    await disconnect(agentSession);
    expect(await counts(owner, m)).toEqual({ home: { online: 2, people: 7 }, live: { online: 2, total: 7 } });
    // And on again: the Agent's machine itself connects.
    await connect(m, agentDevice.id);
    expect(await counts(dev, m)).toEqual({ home: { online: 3, people: 7 }, live: { online: 3, total: 7 } });
  });

  it("stops counting the people of a broker node that died and never came back (its presences go stale)", async () => {
    const [owner, pia] = [await makeUser(db), await makeUser(db)];
    const m = (await makeMesh(db, owner)).id;
    const device = await keyed(m, "command-line device", { user: pia });
    // A presence its node stopped refreshing ten minutes ago, and one refreshed now on a live node.
    await db.presence.create({
      data: {
        meshId: m,
        memberId: device.id,
        nodeId: "gone-node",
        connectionId: uid("c"),
        lastSeenAt: new Date(Date.now() - 600_000),
      },
    });
    await connect(m, (await keyed(m, "anonymous peer")).id);
    expect(await counts(owner, m)).toEqual({ home: { online: 2, people: 3 }, live: { online: 1 + 1, total: 3 } });
    // Any live node's sweep closes what no node refreshed for three ping intervals (at the time it was last seen).
    expect(await closeStalePresences(serviceContext(SYSTEM, { db }), { staleMs: 90_000 })).toBeGreaterThanOrEqual(1);
    expect(await counts(owner, m)).toEqual({ home: { online: 1, people: 3 }, live: { online: 1, total: 3 } });
    const closed = await db.presence.findFirstOrThrow({ where: { memberId: device.id } });
    expect(closed.disconnectedAt?.getTime()).toBe(closed.lastSeenAt.getTime());
  });
});

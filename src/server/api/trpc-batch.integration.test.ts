// Issue 41, attack 2: one signed-in user froze the web app with tRPC batches of ~800 `my.joinMesh` calls,
// each checking an invite signature. Through the /api/trpc handler as its route file builds it (the guard,
// then tRPC), with the session resolver replaced by the test's user.
import superjson from "superjson";
import { afterAll, describe, expect, it } from "vitest";
import { ZCreateInviteInput } from "@/server/services/invites/create-invite.schema";
import { createInvite } from "@/server/services/invites/create-invite";
import { testDb } from "@/test/helpers";
import { ctxOf, makeMesh, makeUser } from "@/test/mesh-fixtures";
import type { SessionUser } from "./trpc";
import { trpcRoute } from "./trpc-route";

const db = testDb();
afterAll(() => db.$disconnect());

const handlerFor = (user: SessionUser) => trpcRoute(async () => user);

/** One POST to /api/trpc: a batch of `inputs.length` calls of `path` (or a single call when `batch` is false). */
function post(user: SessionUser, path: string, inputs: unknown[], batch = true): Promise<Response> {
  const url = batch
    ? `http://test/api/trpc/${inputs.map(() => path).join(",")}?batch=1`
    : `http://test/api/trpc/${path}`;
  const body = batch
    ? Object.fromEntries(inputs.map((input, i) => [String(i), superjson.serialize(input)]))
    : superjson.serialize(inputs[0]);
  return handlerFor(user)(
    new Request(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  );
}

async function inviteToken(owner: SessionUser) {
  const mesh = await makeMesh(db, owner);
  const invite = await createInvite(ctxOf(db, owner), ZCreateInviteInput.parse({ meshId: mesh.id }));
  return { meshId: mesh.id, inviteId: invite.inviteId, token: invite.token };
}

describe("tRPC batches and the browser join (attack 2)", () => {
  it("refuses a batch of 800 joinMesh calls before any of them runs", async () => {
    const owner = await makeUser(db);
    const attacker = await makeUser(db);
    const { meshId, inviteId, token } = await inviteToken(owner);
    const res = await post(
      attacker,
      "my.joinMesh",
      Array.from({ length: 800 }, () => ({ token })),
    );
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({
      error: { code: "PAYLOAD_TOO_LARGE", message: "too_many_calls", details: { max_calls: 20 } },
    });
    // Nothing ran: no member, no use of the invite.
    expect(await db.member.count({ where: { meshId, userId: attacker.id } })).toBe(0);
    expect((await db.invite.findUniqueOrThrow({ where: { id: inviteId } })).usedCount).toBe(0);
  });

  it("still answers batches up to the bound", async () => {
    const user = await makeUser(db);
    const res = await post(
      user,
      "my.updateProfile",
      Array.from({ length: 20 }, () => ({ name: "Tess" })),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result?: unknown; error?: unknown }[];
    expect(body).toHaveLength(20);
    expect(body.every((r) => r.result !== undefined && r.error === undefined)).toBe(true);
  });

  it("limits one user's joins: 50 in a row meet rate_limited with Retry-After", async () => {
    const owner = await makeUser(db);
    const joiner = await makeUser(db);
    const other = await makeUser(db);
    const { token } = await inviteToken(owner);
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let i = 0; i < 50; i++) {
      const res = await post(joiner, "my.joinMesh", [{ token }], false);
      statuses.push(res.status);
      if (res.status !== 200) refused ??= res;
      else await res.arrayBuffer();
    }
    expect(statuses[0]).toBe(200);
    expect(statuses).toContain(429);
    expect(refused?.status).toBe(429);
    expect(Number(refused?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const body = (await refused?.json()) as { error: { json: { message: string; data: { appCode: string } } } };
    expect(body.error.json.message).toBe("rate_limited");
    // Per user: someone else still joins.
    expect((await post(other, "my.joinMesh", [{ token }], false)).status).toBe(200);
  });
});

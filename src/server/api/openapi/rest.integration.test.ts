import { afterAll, describe, expect, it } from "vitest";
import { makeMesh, makeUser } from "@/test/mesh-fixtures";
import { testDb } from "@/test/helpers";
import { CLIENT_ADDRESS_HEADER } from "@/server/core/client-address";
import { appRouter } from "../root";
import { createContext, type SessionUser } from "../trpc";
import { openApiDocument } from "./document";
import { handleRest } from "./rest-handler";

const db = testDb();
afterAll(() => db.$disconnect());

/** The REST handler exactly as the route serves it, with the session user given directly. */
async function rest(
  user: SessionUser | null,
  method: string,
  path: string,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
) {
  const req = new Request(`http://test/api${path}`, {
    method,
    headers: { ...extraHeaders, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const res = await handleRest(req, () => createContext({ user, db, headers: req.headers }));
  return { res, json: (await res.json()) as Record<string, unknown> };
}

describe("REST paths of Document 3", () => {
  it("serves my, admin and public operations at the spec's paths", async () => {
    const owner = await makeUser(db);
    const admin = await makeUser(db, { admin: true });
    const created = await rest(owner, "POST", "/my/meshes", {
      name: "Rest mesh",
      slug: `rest-${Date.now().toString(36)}`,
    });
    expect(created.res.status).toBe(200);
    const meshId = created.json.id as string;

    const list = await rest(owner, "GET", "/my/meshes?page=1&pageSize=5");
    expect(list.json).toMatchObject({
      total: 1,
      page: 1,
      pageSize: 5,
      items: [{ id: meshId, myRole: "owner", isOwner: true, memberCount: 1 }],
    });
    expect(typeof (list.json.items as { createdAt: unknown }[])[0]?.createdAt).toBe("string");

    const invite = await rest(owner, "POST", `/my/meshes/${meshId}/invites`, { role: "member", maxUses: 2 });
    expect(invite.res.status).toBe(200);
    expect(invite.json.inviteLink).toBe(`ic://join/${String(invite.json.token)}`);

    const preview = await rest(null, "GET", `/public/invite/${String(invite.json.token)}`);
    expect(preview.res.headers.get("cache-control")).toBe("public, max-age=30");
    expect(preview.json).toMatchObject({ valid: true, meshName: "Rest mesh" });
    const bad = await rest(null, "GET", "/public/invite/garbage");
    expect(bad.res.headers.get("cache-control")).toBe("no-store");
    expect(bad.json).toMatchObject({ valid: false, reason: "malformed" });

    const stats = await rest(null, "GET", "/public/stats");
    expect(stats.res.headers.get("cache-control")).toBe("public, s-maxage=60");
    expect(["HIT", "MISS"]).toContain(stats.res.headers.get("x-cache"));

    expect((await rest(owner, "GET", `/my/meshes/${meshId}/stream`)).res.status).toBe(200);
    expect((await rest(owner, "GET", "/my/export")).json).toHaveProperty("auditEvents");
    expect((await rest(admin, "GET", "/admin/summary/mesh")).json).toHaveProperty("messages24h");
    expect((await rest(admin, "GET", `/admin/meshes/${meshId}`)).json).toMatchObject({ mesh: { id: meshId } });
    expect((await rest(owner, "POST", `/my/meshes/${meshId}/archive`)).json).toMatchObject({ meshId });
  });

  it("answers errors with one body shape and the mapped status", async () => {
    const [owner, stranger] = [await makeUser(db), await makeUser(db)];
    const mesh = await makeMesh(db, owner);
    const cases: [SessionUser | null, string, string, unknown, number, string][] = [
      [null, "GET", "/my/meshes", undefined, 401, "UNAUTHORIZED"],
      [owner, "GET", "/admin/meshes", undefined, 403, "FORBIDDEN"],
      [stranger, "GET", `/my/meshes/${mesh.id}`, undefined, 404, "NOT_FOUND"],
      [owner, "POST", "/my/meshes", { name: "Dup", slug: mesh.slug }, 409, "CONFLICT"],
      [owner, "POST", "/my/meshes", { name: "", slug: "x" }, 400, "BAD_REQUEST"],
      [owner, "GET", "/my/meshes/not-a-uuid", undefined, 400, "BAD_REQUEST"],
    ];
    for (const [user, method, path, body, status, code] of cases) {
      const { res, json } = await rest(user, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(status);
      expect(json, `${method} ${path}`).toMatchObject({ error: { code, message: expect.any(String) } });
    }
  });
});

describe("invite preview rate limit", () => {
  it("answers 429 with Retry-After after 120 previews a minute from one address", async () => {
    // The web server (src/web/server.ts) sets this header from the socket; the handler reads nothing else.
    const address = { [CLIENT_ADDRESS_HEADER]: `198.51.100.${Math.floor(Math.random() * 250)}` };
    // At once: the bucket (counted in PostgreSQL) refills 2 a second, so a slow loop would earn extra tokens.
    const first = await Promise.all(
      Array.from({ length: 120 }, () => rest(null, "GET", "/public/invite/x", undefined, address)),
    );
    expect(first.map((r) => r.res.status)).toEqual(Array(120).fill(200));
    const limited = await rest(null, "GET", "/public/invite/x", undefined, address);
    expect(limited.res.status).toBe(429);
    expect(Number(limited.res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.json).toMatchObject({ error: { code: "TOO_MANY_REQUESTS", message: "rate_limited" } });
    expect(
      (await rest(null, "GET", "/public/invite/x", undefined, { [CLIENT_ADDRESS_HEADER]: "203.0.113.250" })).res.status,
    ).toBe(200);
  });
});

describe("/api/openapi.json", () => {
  it("removes a member with DELETE (ban from a JSON body or the query), changes a role with PATCH, lifts a ban with DELETE", async () => {
    const owner = await makeUser(db);
    const mesh = await makeMesh(db, owner);
    const peerPubkey = "A".repeat(43);
    const [one, two] = await Promise.all(
      ["one", "two"].map((displayName, i) =>
        db.member.create({ data: { meshId: mesh.id, displayName, peerPubkey: `${peerPubkey.slice(1)}${i}` } }),
      ),
    );
    if (!one || !two) throw new Error("members not created");
    const role = await rest(owner, "PATCH", `/my/meshes/${mesh.id}/members/${one.id}`, { role: "observer" });
    expect(role.json).toEqual({ meshId: mesh.id, memberId: one.id, role: "observer" });
    const banned = await rest(owner, "DELETE", `/my/meshes/${mesh.id}/members/${one.id}`, { ban: true });
    expect(banned.res.status).toBe(200);
    expect(banned.json).toMatchObject({ memberId: one.id, banned: true, keyEpoch: 1 });
    expect((await rest(owner, "DELETE", `/my/meshes/${mesh.id}/members/${two.id}?ban=false`)).json).toMatchObject({
      memberId: two.id,
      banned: false,
      keyEpoch: 2,
    });
    expect((await rest(owner, "GET", `/my/meshes/${mesh.id}/bans`)).json).toMatchObject({
      items: [{ peerPubkey: one.peerPubkey, displayName: "one" }],
    });
    expect((await rest(owner, "DELETE", `/my/meshes/${mesh.id}/bans/${String(one.peerPubkey)}`)).json).toEqual({
      meshId: mesh.id,
      peerPubkey: one.peerPubkey,
      unbanned: true,
    });
    const again = await rest(owner, "DELETE", `/my/meshes/${mesh.id}/bans/${String(one.peerPubkey)}`);
    expect(again.res.status).toBe(404);
    expect(again.json).toEqual({ error: { code: "NOT_FOUND", message: "ban_not_found" } });
    expect((await rest(owner, "DELETE", `/my/meshes/${mesh.id}/members/not-a-uuid`)).res.status).toBe(400);
    expect((await rest(owner, "PATCH", `/my/meshes/${mesh.id}/members/${two.id}`, { role: "owner" })).res.status).toBe(
      400,
    );
  });

  it("documents every procedure of my, admin and public at its path", () => {
    const doc = openApiDocument("http://test/api");
    expect(doc.openapi).toMatch(/^3\./);
    const paths = Object.keys(doc.paths ?? {});
    for (const p of [
      "/my/meshes",
      "/my/meshes/{meshId}",
      "/my/meshes/{meshId}/invites",
      "/my/meshes/{meshId}/archive",
      "/my/meshes/{meshId}/leave",
      "/my/meshes/{meshId}/members/{memberId}",
      "/my/meshes/{meshId}/bans",
      "/my/meshes/{meshId}/bans/{peerPubkey}",
      "/my/meshes/{meshId}/review-bot",
      "/my/invites",
      "/my/meshes/{meshId}/stream",
      "/my/export",
      "/my/account",
      "/my/password",
      "/my/sessions",
      "/my/sessions/{sessionId}",
      "/my/sessions/sign-out-others",
      "/my/account/delete",
      "/admin/meshes",
      "/admin/meshes/{meshId}",
      "/admin/sessions",
      "/admin/invites",
      "/admin/audit",
      "/admin/summary/mesh",
      "/public/stats",
      "/public/invite/{token}",
    ]) {
      expect(paths, p).toContain(p);
    }
    const procedures = Object.keys(appRouter._def.procedures).filter((k) => /^(my|admin|public)\./.test(k));
    // The review engine's operations (scrape router: /scrape, /batches, /admin/scrapers, ...) are counted in scrape-rest.integration.test.ts.
    const mine = Object.entries(doc.paths ?? {}).filter(
      ([p]) => /^\/(my|admin|public)\//.test(p) && !/^\/admin\/(scrapers|api-keys)/.test(p),
    );
    const operations = mine.flatMap(([, item]) => Object.keys(item ?? {}));
    expect(operations.length).toBe(procedures.length);
  });
});

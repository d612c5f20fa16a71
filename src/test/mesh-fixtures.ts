import type { SessionUser } from "@/server/api/trpc";
import type { Db } from "@/server/core/db";
import { meshDeps } from "@/server/services/context";
import { createMesh } from "@/server/services/meshes/create-mesh";
import { registerUser } from "@/server/services/users/register-user";
import { uid } from "./helpers";

/** A registered user as the API sees them. */
export async function makeUser(db: Db, opts: { admin?: boolean; name?: string } = {}): Promise<SessionUser> {
  const email = `${uid("u")}@example.test`;
  const name = opts.name ?? "User";
  const user = await registerUser(db, { name, email, password: "a-long-password" });
  return { id: user.id, email, name, isAdmin: opts.admin ?? false };
}

export const actorOf = (user: SessionUser) => ({ kind: "user" as const, userId: user.id, isAdmin: user.isAdmin });

/** A mesh owned by `owner`, created through the real service. */
export async function makeMesh(db: Db, owner: SessionUser, name = "Test mesh") {
  const slug = uid("m").toLowerCase();
  return createMesh(meshDeps(db), actorOf(owner), { name, slug });
}

/** Adds a member row (joins arrive through the broker; tests set them up directly). */
export async function addMember(db: Db, meshId: string, user: SessionUser, opts: { role?: "admin" | "member" | "observer"; revoked?: boolean } = {}) {
  return db.member.create({
    data: { meshId, userId: user.id, displayName: user.name ?? "member", role: opts.role ?? "member", revokedAt: opts.revoked ? new Date() : null },
  });
}

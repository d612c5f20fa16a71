import nacl from "tweetnacl";
import type { SessionUser } from "@/server/api/trpc";
import { toBase64Url } from "@/server/core/encoding";
import type { Db } from "@/server/core/db";
import { serviceContext, type ServiceContext } from "@/server/services/context";
import { VISITOR } from "@/server/services/actor";
import { ZCreateMeshInput } from "@/server/services/meshes/create-mesh.schema";
import { ZCreateInviteInput } from "@/server/services/invites/create-invite.schema";
import { createInvite } from "@/server/services/invites/create-invite";
import { revokeInvite } from "@/server/services/invites/revoke-invite";
import { joinMesh } from "@/server/services/join/join-mesh";
import { ZJoinInput } from "@/server/services/join/join-mesh.schema";
import type { InviteRefusal } from "@/server/services/invites/invite-refusal";
import { archiveMesh } from "@/server/services/meshes/archive-mesh";
import { createMesh } from "@/server/services/meshes/create-mesh";
import { registerUser } from "@/server/services/users/register-user";
import { uid } from "./helpers";

/** A registered user as the API sees them. */
export async function makeUser(db: Db, opts: { admin?: boolean; name?: string } = {}): Promise<SessionUser> {
  const email = `${uid("u")}@example.test`;
  const name = opts.name ?? "User";
  const user = await registerUser(serviceContext(VISITOR, { db }), { name, email, password: "a-long-password" });
  return { id: user.id, email, name, isAdmin: opts.admin ?? false };
}

export const actorOf = (user: SessionUser) => ({ kind: "user" as const, userId: user.id, isAdmin: user.isAdmin });

/** The services' context of a visitor on the test's database, its clock stopped at `at` when given. */
export const visitorCtx = (db: Db, at?: Date) => serviceContext(VISITOR, { db, ...(at ? { now: () => at } : {}) });

/** The services' context of an administrator on the test's database. */
export const adminCtx = (db: Db, user?: SessionUser) =>
  serviceContext({ kind: "administrator", userId: user?.id ?? "test-admin" }, { db });

/** The services' context of `user` on the test's database (what a signed-in request builds). */
export const ctxOf = (db: Db, user: SessionUser, parts: Partial<Omit<ServiceContext, "actor" | "db">> = {}) =>
  serviceContext(actorOf(user), { ...parts, db });

/** A mesh owned by `owner`, created through the real service. */
export async function makeMesh(db: Db, owner: SessionUser, name = "Test mesh") {
  const slug = uid("m").toLowerCase();
  return createMesh(ctxOf(db, owner), ZCreateMeshInput.parse({ name, slug }));
}

/** Adds a member row (joins arrive through the broker; tests set them up directly). */
export async function addMember(
  db: Db,
  meshId: string,
  user: SessionUser,
  opts: { role?: "admin" | "member" | "observer"; revoked?: boolean } = {},
) {
  return db.member.create({
    data: {
      meshId,
      userId: user.id,
      displayName: user.name ?? "member",
      role: opts.role ?? "member",
      revokedAt: opts.revoked ? new Date() : null,
    },
  });
}

/**
 * One token for each reason a join is refused, in the order the checks run (malformed, bad signature,
 * not found, expired, revoked, exhausted, archived mesh), made through the real services.
 */
export async function refusedInviteTokens(db: Db, owner: SessionUser): Promise<Record<InviteRefusal, string>> {
  const mesh = await makeMesh(db, owner);
  const make = async (opts: { maxUses?: number } = {}) =>
    createInvite(ctxOf(db, owner), ZCreateInviteInput.parse({ meshId: mesh.id, ...opts }));
  const expired = await make();
  await db.invite.update({ where: { id: expired.inviteId }, data: { expiresAt: new Date(Date.now() - 1000) } });
  const revoked = await make();
  await revokeInvite(ctxOf(db, owner), { inviteId: revoked.inviteId });
  const exhausted = await make({ maxUses: 1 });
  await joinMesh(
    visitorCtx(db),
    ZJoinInput.parse({
      token: exhausted.token,
      peerPubkey: toBase64Url(nacl.sign.keyPair().publicKey),
      displayName: "first",
    }),
  );
  const gone = await make();
  await db.invite.delete({ where: { id: gone.inviteId } });
  const archivedMesh = await makeMesh(db, owner);
  const onArchived = await createInvite(ctxOf(db, owner), ZCreateInviteInput.parse({ meshId: archivedMesh.id }));
  await archiveMesh(ctxOf(db, owner), { meshId: archivedMesh.id });
  // A genuine token with one field changed: its signature no longer holds.
  const json = JSON.parse(Buffer.from(revoked.token, "base64url").toString()) as Record<string, string>;
  json.mesh_slug = `${json.mesh_slug}x`;
  return {
    invite_malformed: "%%%",
    invite_bad_signature: Buffer.from(JSON.stringify(json)).toString("base64url"),
    invite_not_found: gone.token,
    invite_expired: expired.token,
    invite_revoked: revoked.token,
    invite_exhausted: exhausted.token,
    mesh_archived: onArchived.token,
  };
}

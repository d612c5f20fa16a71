import type { ServiceContext } from "../context";
import { secretsEqual } from "@/server/core/crypto/equal";
import type { Prisma } from "@/server/core/db";
import { AppError } from "@/server/core/errors";
import type { UserActor } from "../actor";
import { notifyBrokers } from "../broker/mesh-events";
import { endLeaving, leavingSelect } from "../meshes/leave-mesh";
import { type TDeleteAccountInput } from "./delete-account.schema";
import { signOutEverywhere } from "./sign-out-everywhere";

/** The display name left on the user's memberships in other people's meshes. */
export const DELETED_MEMBER_NAME = "deleted account";

/** Leaves every mesh of others the user is a live member of (as "Leave mesh" does), then anonymises the user's members there. */
async function leaveOtherMeshes(tx: Prisma.TransactionClient, userId: string, now: Date): Promise<number> {
  const live = await tx.member.findMany({
    where: { userId, revokedAt: null, mesh: { ownerUserId: { not: userId } } },
    orderBy: { joinedAt: "asc" },
    select: leavingSelect,
  });
  const byMesh = new Map<string, typeof live>();
  for (const m of live) byMesh.set(m.meshId, [...(byMesh.get(m.meshId) ?? []), m]);
  for (const [meshId, members] of byMesh) await endLeaving(tx, meshId, members, now, "account_deleted");
  const mine = (
    await tx.member.findMany({ where: { userId, mesh: { ownerUserId: { not: userId } } }, select: { id: true } })
  ).map((m) => m.id);
  if (mine.length > 0) {
    await tx.member.updateMany({ where: { id: { in: mine } }, data: { displayName: DELETED_MEMBER_NAME } });
    // Audit entries of those meshes stay (they are the meshes' history) without the user's name; the
    // user's id goes with the user row (actor_user_id ON DELETE SET NULL).
    await tx.$executeRaw`UPDATE audit_events SET metadata = metadata - 'displayName'
      WHERE actor_member_id = ANY(${mine}::uuid[]) OR metadata->>'memberId' = ANY(${mine}::text[])`;
  }
  return byMesh.size;
}

/**
 * Deletes the signed-in user's account in one transaction, confirmed by its e-mail address (compared in
 * constant time). Removes: the meshes the user owns with everything in them (members, invites,
 * presences, messages, bans, audit log; every broker node closes their connections, 4410
 * mesh_deleted); the user's memberships in other meshes (left as "Leave mesh" does, then renamed
 * "deleted account"); the invites the user issued; sessions, command-line logins, linked OAuth
 * accounts, password and profile. Keeps, without the user: audit entries of other meshes, API keys the
 * user created, pipeline runs the user started, bans the user issued. Administrators (ADMIN_EMAILS)
 * are refused (CONFLICT admin_account): their address would be free for anyone to sign up with and
 * become administrator (docs/security.md, "Accounts").
 */
export async function deleteAccount(ctx: ServiceContext<UserActor>, input: TDeleteAccountInput) {
  if (ctx.actor.isAdmin) throw new AppError("CONFLICT", "admin_account");
  const now = ctx.now();
  const me = ctx.actor.userId;
  return ctx.db.$transaction(
    async (tx) => {
      const user = await tx.user.findUnique({ where: { id: me }, select: { email: true } });
      if (!user) throw new AppError("NOT_FOUND", "user_not_found");
      if (!secretsEqual(input.confirmEmail.toLowerCase(), (user.email ?? "").toLowerCase())) {
        throw new AppError("BAD_REQUEST", "confirmation_mismatch", { field: "confirmEmail" });
      }
      const meshesLeft = await leaveOtherMeshes(tx, me, now);
      // Invites the user issued in other meshes (as a mesh admin); those of the user's meshes go with them.
      const invites = await tx.invite.deleteMany({
        where: { createdByUserId: me, mesh: { ownerUserId: { not: me } } },
      });
      const owned = await tx.mesh.findMany({ where: { ownerUserId: me }, select: { id: true } });
      await notifyBrokers(
        tx,
        ...owned.map((m) => ({ t: "ended" as const, meshId: m.id, reason: "mesh_deleted" as const })),
      );
      await tx.mesh.deleteMany({ where: { ownerUserId: me } });
      // Sessions and command-line logins end by the step every sign-out-everywhere path shares (their
      // rows then cascade with the user, as OAuth accounts do); members, audit actors, API keys,
      // pipeline runs and bans are set null (prisma/schema.prisma).
      await signOutEverywhere(tx, { userId: me, now });
      await tx.user.delete({ where: { id: me } });
      return { deleted: true as const, meshesDeleted: owned.length, meshesLeft, invitesDeleted: invites.count };
    },
    { timeout: 60_000 },
  );
}

import type { ServiceContext } from "../context";
import { AppError } from "@/server/core/errors";
import type { UserActor } from "../actor";

/**
 * What the account settings show: whether the account has a password (OAuth-only accounts have none),
 * its linked sign-in providers, and what deleting it would remove or keep, counted (delete-account.ts
 * does exactly this). Administrators (ADMIN_EMAILS) cannot delete their account here.
 */
export async function getAccountOverview(ctx: ServiceContext<UserActor>) {
  const now = ctx.now();
  const me = ctx.actor.userId;
  const otherMeshes = { mesh: { ownerUserId: { not: me } } };
  const [user, meshesOwned, otherMembers, messages, joined, invites, sessions, cliLogins, apiKeys] = await Promise.all([
    ctx.db.user.findUnique({
      where: { id: me },
      select: {
        email: true,
        passwordHash: true,
        accounts: { select: { provider: true }, orderBy: { provider: "asc" } },
      },
    }),
    ctx.db.mesh.count({ where: { ownerUserId: me } }),
    // People who lose a mesh: live members of the user's meshes who are not the user.
    ctx.db.member.count({
      where: { mesh: { ownerUserId: me }, revokedAt: null, OR: [{ userId: null }, { userId: { not: me } }] },
    }),
    ctx.db.$queryRaw<
      { n: number }[]
    >`SELECT count(*)::int AS n FROM message_envelopes e JOIN meshes m ON m.id = e.mesh_id WHERE m.owner_user_id = ${me}`.then(
      (rows) => rows[0]?.n ?? 0,
    ),
    ctx.db.member.findMany({
      where: { userId: me, revokedAt: null, ...otherMeshes },
      distinct: ["meshId"],
      select: { meshId: true },
    }),
    ctx.db.invite.count({ where: { createdByUserId: me } }),
    ctx.db.session.count({ where: { userId: me, expires: { gt: now } } }),
    ctx.db.deviceToken.count({ where: { userId: me, revokedAt: null, expiresAt: { gt: now } } }),
    ctx.db.apiKey.count({ where: { createdByUserId: me } }),
  ]);
  if (!user) throw new AppError("NOT_FOUND", "user_not_found");
  return {
    email: user.email ?? "",
    hasPassword: user.passwordHash !== null,
    providers: [...new Set(user.accounts.map((a) => a.provider))],
    deletion: {
      allowed: !ctx.actor.isAdmin,
      removes: { meshesOwned, otherMembers, messages, meshesJoined: joined.length, invites, sessions, cliLogins },
      keeps: { apiKeys },
    },
  };
}

import { AppError } from "@/server/core/errors";
import type { AdministratorActor, UserActor } from "../actor";
import type { ServiceContext } from "../context";
import { LIVE_BOT } from "./live-bot";
import type { TListMyReviewBotsInput } from "./review-bots.schema";

/**
 * The live review bots of the meshes `userId` owns or administers (a live admin member), each with the
 * group names its mesh's live members use, sorted: what an alert rule's form offers to pick from. The
 * signed-in person's own list only (a user, or an administrator on the admin pages): FORBIDDEN otherwise.
 */
export async function listMyReviewBots(
  ctx: ServiceContext<UserActor | AdministratorActor>,
  input: TListMyReviewBotsInput,
) {
  const { userId } = input;
  // Only one's own list: the person is the one signed in.
  if (userId !== ctx.actor.userId) throw new AppError("FORBIDDEN", "own_data_only");
  const bots = await ctx.db.reviewBot.findMany({
    where: {
      ...LIVE_BOT,
      mesh: {
        archivedAt: null,
        OR: [{ ownerUserId: userId }, { members: { some: { userId, revokedAt: null, role: "admin" } } }],
      },
    },
    orderBy: { createdAt: "asc" },
    take: 200,
    select: {
      id: true,
      meshId: true,
      mesh: {
        select: {
          name: true,
          members: { where: { revokedAt: null, groups: { isEmpty: false } }, select: { groups: true } },
        },
      },
    },
  });
  return bots.map((b) => ({
    botId: b.id,
    meshId: b.meshId,
    meshName: b.mesh.name,
    groups: [...new Set(b.mesh.members.flatMap((m) => m.groups))].sort(),
  }));
}

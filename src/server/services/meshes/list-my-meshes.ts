import type { ServiceContext } from "../context";
import type { UserActor } from "../actor";
import { readPage } from "../paging";
import { meshSummarySelect } from "../selects";
import { visibleTo } from "./access";
import { roleOfUser } from "./member-roles";
import { memberCounts } from "./member-counts";
import { type TPageInput } from "./schemas";

/** The meshes the actor owns or belongs to, newest first, with myRole, isOwner and memberCount. */
export async function listMyMeshes(ctx: ServiceContext<UserActor>, input: TPageInput) {
  const where = visibleTo(ctx.actor.userId);
  const page = await readPage(
    input,
    () => ctx.db.mesh.count({ where }),
    (window) =>
      ctx.db.mesh.findMany({
        where,
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        ...window,
        select: {
          ...meshSummarySelect,
          ownerUserId: true,
          members: { where: { userId: ctx.actor.userId, revokedAt: null }, select: { role: true } },
        },
      }),
  );
  const countOf = await memberCounts(
    ctx,
    page.items.map((m) => m.id),
  );
  return {
    ...page,
    items: page.items.map(({ members, ownerUserId, ...mesh }) => {
      const isOwner = ownerUserId === ctx.actor.userId;
      return {
        ...mesh,
        isOwner,
        myRole: roleOfUser(
          isOwner,
          members.map((m) => m.role),
          "member",
        ),
        memberCount: countOf.get(mesh.id) ?? 0,
      };
    }),
  };
}

import type { UserActor } from "../actor";
import { readPage } from "../paging";
import { meshSummarySelect } from "../selects";
import type { MeshDeps } from "./deps";
import { visibleTo } from "./access";
import { roleOfUser } from "./member-roles";
import { memberCounts } from "./member-counts";
import { ZPageInput, type TPageInput } from "./schemas";

/** The meshes the actor owns or belongs to, newest first, with myRole, isOwner and memberCount. */
export async function listMyMeshes(deps: Pick<MeshDeps, "db">, actor: UserActor, raw: TPageInput) {
  const input = ZPageInput.parse(raw);
  const where = visibleTo(actor.userId);
  const page = await readPage(
    input,
    () => deps.db.mesh.count({ where }),
    (window) =>
      deps.db.mesh.findMany({
        where,
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        ...window,
        select: {
          ...meshSummarySelect,
          ownerUserId: true,
          members: { where: { userId: actor.userId, revokedAt: null }, select: { role: true } },
        },
      }),
  );
  const countOf = await memberCounts(
    deps.db,
    page.items.map((m) => m.id),
  );
  return {
    ...page,
    items: page.items.map(({ members, ownerUserId, ...mesh }) => {
      const isOwner = ownerUserId === actor.userId;
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

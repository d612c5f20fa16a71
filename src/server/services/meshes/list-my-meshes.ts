import type { UserActor } from "../actor";
import type { MeshDeps } from "./deps";
import { visibleTo } from "./access";
import { pageWindow, type TPageInput } from "./schemas";

/** The meshes the actor owns or belongs to, newest first, with myRole, isOwner and memberCount. */
export async function listMyMeshes(deps: Pick<MeshDeps, "db">, actor: UserActor, input: TPageInput) {
  const { page, pageSize, skip } = pageWindow(input);
  const where = visibleTo(actor.userId);
  const [total, rows] = await Promise.all([
    deps.db.mesh.count({ where }),
    deps.db.mesh.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip,
      take: pageSize,
      select: {
        id: true,
        slug: true,
        name: true,
        ownerUserId: true,
        visibility: true,
        transport: true,
        tier: true,
        archivedAt: true,
        createdAt: true,
        members: { where: { userId: actor.userId, revokedAt: null }, select: { role: true }, take: 1 },
        _count: { select: { members: { where: { revokedAt: null } } } },
      },
    }),
  ]);
  return {
    page,
    pageSize,
    total,
    items: rows.map(({ members, _count, ownerUserId, ...mesh }) => {
      const isOwner = ownerUserId === actor.userId;
      return { ...mesh, isOwner, myRole: isOwner ? ("owner" as const) : (members[0]?.role ?? "member"), memberCount: _count.members };
    }),
  };
}

import type { Db, Prisma } from "@/server/core/db";
import { pageOf, ZAdminMeshesInput, type TAdminMeshesInput } from "./schemas";
import { meshSummarySelect } from "../selects";

/** All meshes with owner and member count; search on name and slug, enumeration and archived filters. */
export async function adminListMeshes(db: Db, raw: TAdminMeshesInput) {
  const input = ZAdminMeshesInput.parse(raw);
  const where: Prisma.MeshWhereInput = {
    ...(input.q ? { OR: [{ name: { contains: input.q, mode: "insensitive" } }, { slug: { contains: input.q.toLowerCase() } }] } : {}),
    ...(input.visibility ? { visibility: input.visibility } : {}),
    ...(input.transport ? { transport: input.transport } : {}),
    ...(input.tier ? { tier: input.tier } : {}),
    ...(input.archived ? { archivedAt: input.archived === "yes" ? { not: null } : null } : {}),
  };
  const [total, rows] = await Promise.all([
    db.mesh.count({ where }),
    db.mesh.findMany({
      where,
      orderBy: [{ [input.sort]: input.dir }, { id: input.dir }],
      skip: (input.page - 1) * input.pageSize,
      take: input.pageSize,
      select: {
        ...meshSummarySelect,
        owner: { select: { id: true, name: true, email: true } },
      },
    }),
  ]);
  // Member counts for this page only: a relation count in the list query would aggregate every
  // member row of the table on each page.
  const counts = await db.member.groupBy({
    by: ["meshId"],
    where: { meshId: { in: rows.map((r) => r.id) }, revokedAt: null },
    _count: { _all: true },
  });
  const countOf = new Map(counts.map((c) => [c.meshId, c._count._all]));
  return pageOf(
    rows.map((m) => ({ ...m, memberCount: countOf.get(m.id) ?? 0 })),
    total,
    input.page,
    input.pageSize,
  );
}

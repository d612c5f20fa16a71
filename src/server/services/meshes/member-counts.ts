import type { ServiceContext } from "../context";

/**
 * Non-revoked members per mesh, for the meshes of one page only. A relation count inside the list
 * query would aggregate every member row of the table on each page (measured in bench/admin-meshes.ts).
 */
export async function memberCounts(ctx: ServiceContext, meshIds: string[]): Promise<Map<string, number>> {
  if (meshIds.length === 0) return new Map();
  const counts = await ctx.db.member.groupBy({
    by: ["meshId"],
    where: { meshId: { in: meshIds }, revokedAt: null },
    _count: { _all: true },
  });
  return new Map(counts.map((c) => [c.meshId, c._count._all]));
}

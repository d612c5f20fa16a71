import type { AdministratorActor } from "../actor";
import type { ServiceContext } from "../context";
import type { Prisma } from "@/server/core/db";
import { memberCounts } from "../meshes/member-counts";
import { readPage } from "../paging";
import { type TAdminMeshesInput } from "./list-meshes.schema";
import { meshSummarySelect } from "../selects";
import { containsText, containsLower } from "@/server/core/text-search";

/** All meshes with owner and member count; search on name and slug, enumeration and archived filters. */
export async function adminListMeshes(ctx: ServiceContext<AdministratorActor>, input: TAdminMeshesInput) {
  const where: Prisma.MeshWhereInput = {
    ...(input.q ? { OR: [{ name: containsText(input.q) }, { slug: containsLower(input.q) }] } : {}),
    ...(input.visibility ? { visibility: input.visibility } : {}),
    ...(input.transport ? { transport: input.transport } : {}),
    ...(input.tier ? { tier: input.tier } : {}),
    ...(input.archived ? { archivedAt: input.archived === "yes" ? { not: null } : null } : {}),
  };
  const page = await readPage(
    input,
    () => ctx.db.mesh.count({ where }),
    (window) =>
      ctx.db.mesh.findMany({
        where,
        orderBy: [{ [input.sort]: input.dir }, { id: input.dir }],
        ...window,
        select: {
          ...meshSummarySelect,
          owner: { select: { id: true, name: true, email: true } },
        },
      }),
  );
  const countOf = await memberCounts(
    ctx,
    page.items.map((m) => m.id),
  );
  return { ...page, items: page.items.map((m) => ({ ...m, memberCount: countOf.get(m.id) ?? 0 })) };
}

import type { AdministratorActor } from "../actor";
import type { ServiceContext } from "../context";
import type { Prisma } from "@/server/core/db";
import { readPage } from "../paging";
import { type TAdminSessionsInput } from "./list-sessions.schema";
import { containsText, containsLower } from "@/server/core/text-search";

/** Presences across all meshes, joined to member and mesh; filter active or disconnected. */
export async function adminListSessions(ctx: ServiceContext<AdministratorActor>, input: TAdminSessionsInput) {
  const where: Prisma.PresenceWhereInput = {
    ...(input.status ? { disconnectedAt: input.status === "active" ? null : { not: null } } : {}),
    ...(input.q
      ? {
          OR: [{ member: { displayName: containsText(input.q) } }, { mesh: { slug: containsLower(input.q) } }],
        }
      : {}),
  };
  return readPage(
    input,
    () => ctx.db.presence.count({ where }),
    (window) =>
      ctx.db.presence.findMany({
        where,
        orderBy: [
          input.sort === "disconnectedAt"
            ? { disconnectedAt: { sort: input.dir, nulls: "last" } }
            : { connectedAt: input.dir },
          { id: input.dir },
        ],
        ...window,
        select: {
          id: true,
          nodeId: true,
          status: true,
          statusText: true,
          connectedAt: true,
          lastSeenAt: true,
          disconnectedAt: true,
          member: { select: { id: true, displayName: true, role: true } },
          mesh: { select: { id: true, slug: true, name: true } },
        },
      }),
  );
}

import type { AdministratorActor } from "../actor";
import type { ServiceContext } from "../context";
import type { Prisma } from "@/server/core/db";
import { auditActorSelect, namedAuditEvents } from "../audit/names";
import { readPage } from "../paging";
import { type TAdminAuditInput } from "./list-audit.schema";
import { containsText, containsLower } from "@/server/core/text-search";

/**
 * Most members (by display name) and meshes (by slug or name) a text search matches: neither the
 * actor member nor the mesh of an event has a relation to join (prisma/schema.prisma).
 */
const ACTOR_SEARCH_LIMIT = 1_000;
const MESH_SEARCH_LIMIT = 1_000;

/** The audit log, newest first by default; text search (`q`), filters eventType, meshId and a date range. */
export async function adminListAudit(ctx: ServiceContext<AdministratorActor>, input: TAdminAuditInput) {
  const [actors, meshesFound] = input.q
    ? await Promise.all([
        ctx.db.member.findMany({
          where: { displayName: containsText(input.q) },
          select: { id: true },
          take: ACTOR_SEARCH_LIMIT,
        }),
        ctx.db.mesh.findMany({
          where: {
            OR: [{ slug: containsLower(input.q) }, { name: containsText(input.q) }],
          },
          select: { id: true },
          take: MESH_SEARCH_LIMIT,
        }),
      ])
    : [[], []];
  const where: Prisma.AuditEventWhereInput = {
    ...(input.eventType ? { eventType: input.eventType } : {}),
    ...(input.meshId ? { meshId: input.meshId } : {}),
    ...(input.q
      ? {
          OR: [
            { meshId: { in: meshesFound.map((m) => m.id) } },
            { actorUser: { email: containsText(input.q) } },
            { actorUser: { name: containsText(input.q) } },
            { actorMemberId: { in: actors.map((m) => m.id) } },
          ],
        }
      : {}),
    ...(input.from || input.to
      ? { createdAt: { ...(input.from ? { gte: input.from } : {}), ...(input.to ? { lt: input.to } : {}) } }
      : {}),
  };
  const page = await readPage(
    input,
    () => ctx.db.auditEvent.count({ where }),
    (window) =>
      ctx.db.auditEvent.findMany({
        where,
        orderBy: [{ createdAt: input.dir }, { id: input.dir }],
        ...window,
        select: {
          id: true,
          eventType: true,
          actorUserId: true,
          metadata: true,
          createdAt: true,
          meshId: true,
          ...auditActorSelect,
        },
      }),
  );
  const named = await namedAuditEvents(ctx, { events: page.items, withEmail: true });
  const meshes = new Map(
    (
      await ctx.db.mesh.findMany({
        where: { id: { in: [...new Set(page.items.map((a) => a.meshId))] } },
        select: { id: true, slug: true, name: true },
      })
    ).map((m) => [m.id, m]),
  );
  return {
    ...page,
    // A mesh's events go with it (a trigger): one is missing only for a moment while it is deleted.
    items: named.map(({ meshId, ...a }) => ({
      ...a,
      id: a.id.toString(),
      mesh: meshes.get(meshId) ?? { id: meshId, slug: "", name: "" },
    })),
  };
}

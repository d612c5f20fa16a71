import type { Db, Prisma } from "@/server/core/db";
import { auditActorSelect, namedAuditEvents } from "../audit/names";
import { readPage } from "../paging";
import { ZAdminAuditInput, type TAdminAuditInput } from "./schemas";

/** Most members a text search matches by display name (the actor reference has no relation to join). */
const ACTOR_SEARCH_LIMIT = 1_000;

/** The audit log, newest first by default; text search (`q`), filters eventType, meshId and a date range. */
export async function adminListAudit(db: Db, raw: TAdminAuditInput) {
  const input = ZAdminAuditInput.parse(raw);
  const actors = input.q
    ? await db.member.findMany({ where: { displayName: { contains: input.q, mode: "insensitive" } }, select: { id: true }, take: ACTOR_SEARCH_LIMIT })
    : [];
  const where: Prisma.AuditEventWhereInput = {
    ...(input.eventType ? { eventType: input.eventType } : {}),
    ...(input.meshId ? { meshId: input.meshId } : {}),
    ...(input.q
      ? {
          OR: [
            { mesh: { slug: { contains: input.q.toLowerCase() } } },
            { mesh: { name: { contains: input.q, mode: "insensitive" } } },
            { actorUser: { email: { contains: input.q, mode: "insensitive" } } },
            { actorUser: { name: { contains: input.q, mode: "insensitive" } } },
            { actorMemberId: { in: actors.map((m) => m.id) } },
          ],
        }
      : {}),
    ...(input.from || input.to ? { createdAt: { ...(input.from ? { gte: input.from } : {}), ...(input.to ? { lt: input.to } : {}) } } : {}),
  };
  const page = await readPage(
    input,
    () => db.auditEvent.count({ where }),
    (window) =>
      db.auditEvent.findMany({
        where,
        orderBy: [{ createdAt: input.dir }, { id: input.dir }],
        ...window,
        select: {
          id: true,
          eventType: true,
          actorUserId: true,
          metadata: true,
          createdAt: true,
          mesh: { select: { id: true, slug: true, name: true } },
          ...auditActorSelect,
        },
      }),
  );
  const named = await namedAuditEvents(db, page.items, { withEmail: true });
  return { ...page, items: named.map((a) => ({ ...a, id: a.id.toString() })) };
}

import type { ServiceContext } from "../context";
import { isUuid } from "@/server/core/ids";

/**
 * What an audit query selects to name the actor (the member's display name, read by id, else the
 * user's name or e-mail): the member reference has no foreign key (the broker writes one event per
 * message), so no relation to include.
 */
export const auditActorSelect = {
  actorMemberId: true,
  actorUser: { select: { name: true, email: true } },
} as const;

interface Raw {
  metadata: unknown;
  actorMemberId: string | null;
  actorUser: { name: string | null; email: string | null } | null;
}

export function metadataOf(metadata: unknown): Record<string, unknown> {
  return metadata !== null && typeof metadata === "object" && !Array.isArray(metadata)
    ? (metadata as Record<string, unknown>)
    : {};
}

/** The member an event is about (removed, banned, role changed), when its metadata names one. */
function targetMemberId(metadata: unknown): string | null {
  const id = metadataOf(metadata).memberId;
  return isUuid(id) ? id : null;
}

/**
 * Audit events with the names people read: `actorName` (a member's display name, else the user's name,
 * else, where `withEmail` (administrators), the user's e-mail) and `targetName` (the member the event is
 * about, by its current name, else the name the event recorded). One query for all the members named
 * (actors and targets), limited to `meshId` when the events are one mesh's.
 */
export type Named<T> = Omit<T, "actorUser"> & { actorName: string | null; targetName: string | null };

export async function namedAuditEvents<T extends Raw>(
  ctx: ServiceContext,
  input: { events: T[]; meshId?: string; withEmail?: boolean },
): Promise<Named<T>[]> {
  const { events, ...options } = input;
  const ids = [
    ...new Set(
      events.flatMap((a) => [targetMemberId(a.metadata), a.actorMemberId]).filter((id): id is string => id !== null),
    ),
  ];
  const rows = ids.length
    ? await ctx.db.member.findMany({
        where: { id: { in: ids }, ...(options.meshId ? { meshId: options.meshId } : {}) },
        select: { id: true, displayName: true },
      })
    : [];
  const names = new Map(rows.map((m) => [m.id, m.displayName]));
  return events.map(({ actorUser, ...a }): Named<T> => {
    const targetId = targetMemberId(a.metadata);
    const recorded = metadataOf(a.metadata).displayName;
    return {
      ...a,
      actorName:
        (a.actorMemberId ? names.get(a.actorMemberId) : undefined) ??
        actorUser?.name ??
        (options.withEmail ? (actorUser?.email ?? null) : null),
      targetName: (targetId ? names.get(targetId) : undefined) ?? (typeof recorded === "string" ? recorded : null),
    };
  });
}

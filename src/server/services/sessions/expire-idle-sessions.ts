import type { SystemActor } from "../actor";
import { recordAudit } from "../audit/record-audit";
import { notifyBrokers } from "../broker/mesh-events";
import { endMembership } from "../meshes/members";
import type { ServiceContext } from "../context";

/**
 * Ends the session members that have had no connection for `idleMs` (docs/protocol.md, "Session
 * members"): their assistant session is gone without a word (killed, the machine off). Each ends as if
 * it left (audit `member_left`, reason `session_idle`), without a new key epoch (its parent holds every key
 * it held). Rows are taken with SKIP LOCKED, so nodes sweeping at once never end one twice. Returns the ids.
 */
export async function expireIdleSessions(
  ctx: ServiceContext<SystemActor>,
  input: { idleMs: number; limit?: number },
): Promise<{ meshId: string; memberId: string }[]> {
  const now = ctx.now();
  const cutoff = new Date(now.getTime() - input.idleMs);
  return ctx.db.$transaction(async (tx) => {
    const idle = await tx.$queryRaw<{ id: string; mesh_id: string; display_name: string; user_id: string | null }[]>`
      SELECT m.id::text, m.mesh_id::text, m.display_name, m.user_id FROM members m
      WHERE m.parent_member_id IS NOT NULL AND m.revoked_at IS NULL AND NOT m.browser_device
        AND m.joined_at < ${cutoff}::timestamptz AT TIME ZONE 'UTC'
        AND NOT EXISTS (SELECT 1 FROM presences p WHERE p.member_id = m.id
          AND (p.disconnected_at IS NULL OR p.disconnected_at >= ${cutoff}::timestamptz AT TIME ZONE 'UTC'))
      ORDER BY m.joined_at LIMIT ${input.limit ?? 500}::int
      FOR UPDATE OF m SKIP LOCKED`;
    for (const m of idle) {
      await endMembership(tx, m.id, now);
      await recordAudit(tx, {
        meshId: m.mesh_id,
        type: "member_left",
        actorUserId: m.user_id,
        actorMemberId: m.id,
        metadata: { displayName: m.display_name, device: true, session: true, reason: "session_idle" },
      });
    }
    await notifyBrokers(
      tx,
      ...idle.map((m) => ({ t: "ended" as const, meshId: m.mesh_id, memberId: m.id, reason: "left" as const })),
    );
    return idle.map((m) => ({ meshId: m.mesh_id, memberId: m.id }));
  });
}

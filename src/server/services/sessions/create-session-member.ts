import type { MemberRole } from "@/generated/prisma/enums";
import { isUniqueViolation } from "@/server/core/errors";
import type { PeerActor } from "../actor";
import { recordAudit } from "../audit/record-audit";
import { notifyBrokers } from "../broker/mesh-events";
import { isBanned, isUserBanned } from "../meshes/members-bans";
import { endMembership } from "../meshes/members";
import type { ServiceContext } from "../context";
import type { SessionLimits, TCreateSessionInput } from "./create-session-member.schema";
import { verifySessionProof } from "./session-proof";

// One identity per assistant session (issue 43; docs/cli.md, "One identity per session"). A machine's
// member (the parent, the actor: it signed the request with its key) makes a member for one session of
// a coding assistant, with a key pair of the session's own. The session member has the parent's person,
// role, groups and invite, so whatever reaches the parent reaches it: a removal or ban of the parent or of
// its person ends it (members.ts), its connections count against its invite's cap, and it can only exist
// while its parent does (the connection check reads the parent too: peer-connection.ts). A parent holds at
// most `perParent` live ones; a session member cannot make one of its own.

export type CreateSessionRefusal =
  "ended" | "session_of_session" | "key_proof_invalid" | "peer_banned" | "banned" | "key_in_use" | "session_cap";

export type CreateSessionResult =
  | {
      ok: true;
      memberId: string;
      meshSlug: string;
      role: string;
      displayName: string;
      parentMemberId: string;
      /** True when this key already was a live session member of this parent (nothing new was made). */
      rejoined: boolean;
      /** Session members of the parent ended to make room (idle past `evictAfterMs`). */
      evicted: string[];
    }
  | { ok: false; reason: CreateSessionRefusal };

interface ParentRow {
  id: string;
  user_id: string | null;
  role: MemberRole;
  groups: string[];
  invite_id: string | null;
  parent_member_id: string | null;
  slug: string;
}

/** Creates (or finds again) the session member of the actor for the keys in `input`. */
export async function createSessionMember(
  ctx: ServiceContext<PeerActor>,
  input: TCreateSessionInput & { limits: SessionLimits },
): Promise<CreateSessionResult> {
  const { meshId, memberId: parentId } = ctx.actor;
  const now = ctx.now();
  const proven = verifySessionProof(
    input.proof,
    { meshId, parentMemberId: parentId, peerPubkey: input.peerPubkey, boxPubkey: input.boxPubkey },
    now.getTime(),
  );
  if (!proven) return { ok: false, reason: "key_proof_invalid" };
  try {
    return await ctx.db.$transaction(async (tx) => {
      // The parent's row lock: creations for one parent go one at a time, so the cap holds under any
      // number of concurrent requests (on any number of nodes); a removal of the parent waits for it too.
      const parents = await tx.$queryRaw<ParentRow[]>`
        SELECT m.id::text, m.user_id, m.role::text, m.groups, m.invite_id::text, m.parent_member_id::text, ms.slug
        FROM members m JOIN meshes ms ON ms.id = m.mesh_id
        WHERE m.id = ${parentId}::uuid AND m.mesh_id = ${meshId}::uuid AND m.revoked_at IS NULL
          AND m.peer_pubkey IS NOT NULL AND ms.archived_at IS NULL
        FOR UPDATE OF m`;
      const parent = parents[0];
      if (!parent) return { ok: false as const, reason: "ended" as const };
      if (parent.parent_member_id !== null) return { ok: false as const, reason: "session_of_session" as const };
      if (await isBanned(tx, meshId, input.peerPubkey)) return { ok: false as const, reason: "peer_banned" as const };
      if (parent.user_id !== null && (await isUserBanned(tx, meshId, parent.user_id)))
        return { ok: false as const, reason: "banned" as const };

      const existing = await tx.member.findUnique({
        where: { meshId_peerPubkey: { meshId, peerPubkey: input.peerPubkey } },
        select: { id: true, role: true, displayName: true, parentMemberId: true, revokedAt: true, boxPubkey: true },
      });
      if (existing) {
        // The same session asking again (its assistant restarted the server): the member it has.
        if (existing.parentMemberId === parentId && !existing.revokedAt && existing.boxPubkey === input.boxPubkey)
          return {
            ok: true as const,
            memberId: existing.id,
            meshSlug: parent.slug,
            role: existing.role,
            displayName: existing.displayName,
            parentMemberId: parentId,
            rejoined: true,
            evicted: [],
          };
        return { ok: false as const, reason: "key_in_use" as const };
      }

      const live = await tx.$queryRaw<{ id: string; display_name: string; idle: boolean }[]>`
        SELECT m.id::text, m.display_name,
          NOT EXISTS (SELECT 1 FROM presences p WHERE p.member_id = m.id AND p.disconnected_at IS NULL)
          AND greatest(m.joined_at, (SELECT max(p.disconnected_at) FROM presences p WHERE p.member_id = m.id))
              < ${new Date(now.getTime() - input.limits.evictAfterMs)}::timestamptz AT TIME ZONE 'UTC' AS idle
        FROM members m
        WHERE m.parent_member_id = ${parentId}::uuid AND m.revoked_at IS NULL
        ORDER BY m.joined_at`;
      const evicted: string[] = [];
      if (live.length >= input.limits.perParent) {
        // Room is made from the idle ones, oldest first; connected (or just made) sessions are never ended.
        const idle = live.filter((m) => m.idle).slice(0, live.length - input.limits.perParent + 1);
        if (live.length - idle.length >= input.limits.perParent)
          return { ok: false as const, reason: "session_cap" as const };
        for (const m of idle) {
          await endMembership(tx, m.id, now);
          await recordAudit(tx, {
            meshId,
            type: "member_left",
            actorUserId: parent.user_id,
            actorMemberId: m.id,
            metadata: { displayName: m.display_name, device: true, session: true, reason: "session_evicted" },
          });
          evicted.push(m.id);
        }
      }

      const member = await tx.member.create({
        data: {
          meshId,
          peerPubkey: input.peerPubkey,
          boxPubkey: input.boxPubkey,
          displayName: input.displayName,
          // A session never outranks a mesh admin: the owner's powers stay with the owner's own membership.
          role: parent.role === "owner" ? "admin" : parent.role,
          inviteId: parent.invite_id,
          userId: parent.user_id,
          groups: parent.groups,
          parentMemberId: parentId,
          joinedAt: now,
        },
        select: { id: true, role: true },
      });
      await recordAudit(tx, {
        meshId,
        type: "member_joined",
        actorUserId: parent.user_id,
        actorMemberId: member.id,
        metadata: { via: "session", parentMemberId: parentId, role: member.role },
      });
      // The parent keeps every key of the mesh, so a session that ends raises no key epoch (it knew no
      // more than its parent does); the nodes forget their member lists and close what was evicted.
      await notifyBrokers(
        tx,
        { t: "joined", meshId, memberId: member.id },
        ...evicted.map((id) => ({ t: "ended" as const, meshId, memberId: id, reason: "left" as const })),
      );
      return {
        ok: true as const,
        memberId: member.id,
        meshSlug: parent.slug,
        role: member.role,
        displayName: input.displayName,
        parentMemberId: parentId,
        rejoined: false,
        evicted,
      };
    });
  } catch (error) {
    // The same key sent twice at once: one creation wins, the other finds it now.
    if (isUniqueViolation(error)) return createSessionMember(ctx, input);
    throw error;
  }
}

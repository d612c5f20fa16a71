import type { MemberRole } from "@/generated/prisma/enums";
import type { Db } from "@/server/core/db";
import { isUniqueViolation, type AppErrorCode } from "@/server/core/errors";
import { verifyInviteToken } from "@/server/core/invites";
import { recordAudit } from "../audit/record-audit";
import type { InviteRefusal } from "../invites/invite-refusal";
import { notifyBrokers } from "../broker/mesh-events";
import { isBanned, personBannedUnderLock } from "../meshes/members-bans";
import { userOfDeviceToken } from "../devices/device-login";
import type { VisitorActor } from "../actor";
import type { ServiceContext } from "../context";
import { verifyJoinProof } from "./join-proof";
import type { TJoinInput } from "./join-mesh.schema";
import { useInvite } from "./use-invite";

/**
 * The error codes (ERROR_MAP) a join is refused with, in the order they are checked (Document 2's join
 * rules): the invite's refusals, then the peer's.
 */
export type JoinRefusedWith =
  | InviteRefusal
  | Extract<
      AppErrorCode,
      "peer_banned" | "banned" | "key_proof_required" | "key_proof_invalid" | "account_token_invalid"
    >;

export type JoinResult =
  | { ok: true; meshId: string; meshSlug: string; memberId: string; role: string; rejoined: boolean }
  | { ok: false; reason: JoinRefusedWith };

/**
 * Joins a peer to a mesh with a signed invite: exact-token lookup, signature by the shared codec,
 * then expiry, revocation, use cap and archived mesh. The use is counted by one conditional UPDATE,
 * so the cap holds under any number of concurrent joins; a peer already in the mesh uses nothing.
 * The peer is not known yet: its actor is the visitor (the broker's `/join`).
 */
export async function joinMesh(ctx: ServiceContext<VisitorActor>, input: TJoinInput): Promise<JoinResult> {
  return joinAt(ctx, input, ctx.now());
}

async function joinAt(ctx: ServiceContext, input: TJoinInput, now: Date): Promise<JoinResult> {
  const { db } = ctx;
  const found = await inviteOfToken(db, input.token, now);
  if (!found.ok) return found;
  const { invite } = found;

  if (await isBanned(db, invite.meshId, input.peerPubkey)) return { ok: false, reason: "peer_banned" };

  // A proof that is sent must hold; one is needed where the join would change a member's box key.
  const proven =
    input.proof !== undefined &&
    verifyJoinProof(
      input.proof,
      { token: input.token, peerPubkey: input.peerPubkey, boxPubkey: input.boxPubkey },
      now.getTime(),
    );
  if (input.proof !== undefined && !proven) return { ok: false, reason: "key_proof_invalid" };
  const account =
    input.accountToken === undefined
      ? null
      : await userOfDeviceToken({ ...ctx, now: () => now }, { token: input.accountToken });
  if (input.accountToken !== undefined && !account) return { ok: false, reason: "account_token_invalid" };

  try {
    return await db.$transaction(async (tx) => {
      if (account && (await personBannedUnderLock(tx, invite.meshId, account.userId)))
        return { ok: false as const, reason: "banned" as const };
      const existing = await tx.member.findUnique({
        where: { meshId_peerPubkey: { meshId: invite.meshId, peerPubkey: input.peerPubkey } },
        select: { id: true, role: true, revokedAt: true, boxPubkey: true, userId: true },
      });
      // The box key this join would leave on an existing member (a live rejoin without one keeps it).
      const nextBoxKey =
        existing && !existing.revokedAt ? (input.boxPubkey ?? existing.boxPubkey) : (input.boxPubkey ?? null);
      const changesBoxKey = existing !== null && nextBoxKey !== existing.boxPubkey;
      // Linking an existing member to an account also needs the proof: a stranger knows its public key too.
      const linksUser = account !== null && existing !== null && existing.userId !== account.userId;
      if ((changesBoxKey || linksUser) && !proven) return { ok: false as const, reason: "key_proof_required" as const };
      const userId = account?.userId ?? existing?.userId ?? null;
      if (existing && !existing.revokedAt) {
        if (changesBoxKey || linksUser) {
          await tx.member.update({ where: { id: existing.id }, data: { boxPubkey: nextBoxKey, userId } });
          await notifyBrokers(tx, { t: "joined", meshId: invite.meshId, memberId: existing.id });
        }
        return {
          ok: true as const,
          meshId: invite.meshId,
          meshSlug: invite.mesh.slug,
          memberId: existing.id,
          role: existing.role,
          rejoined: true,
        };
      }
      const refused = await useInvite(tx, invite.id, now);
      if (refused) return { ok: false as const, reason: refused };
      const member = existing
        ? await tx.member.update({
            where: { id: existing.id },
            data: {
              revokedAt: null,
              role: invite.role,
              displayName: input.displayName,
              inviteId: invite.id,
              boxPubkey: input.boxPubkey ?? null,
              userId,
              ...(input.groups ? { groups: input.groups } : {}),
            },
            select: { id: true },
          })
        : await tx.member.create({
            data: {
              meshId: invite.meshId,
              peerPubkey: input.peerPubkey,
              boxPubkey: input.boxPubkey ?? null,
              displayName: input.displayName,
              role: invite.role,
              inviteId: invite.id,
              userId,
              groups: input.groups ?? [],
            },
            select: { id: true },
          });
      await recordAudit(tx, {
        meshId: invite.meshId,
        type: "member_joined",
        actorUserId: userId,
        actorMemberId: member.id,
        metadata: { inviteId: invite.id, role: invite.role, ...(userId ? { via: "device" } : {}) },
      });
      // Every broker node reads the mesh's members again: whole-mesh messages reach the newcomer at once.
      await notifyBrokers(tx, { t: "joined", meshId: invite.meshId, memberId: member.id });
      return {
        ok: true as const,
        meshId: invite.meshId,
        meshSlug: invite.mesh.slug,
        memberId: member.id,
        role: invite.role,
        rejoined: false,
      };
    });
  } catch (error) {
    // The same peer joining twice at once: the unique (mesh, peer key) index lets one in; retry finds it.
    if (isUniqueViolation(error)) return joinAt(ctx, input, now);
    throw error;
  }
}

export interface FoundInvite {
  id: string;
  meshId: string;
  role: MemberRole;
  mesh: { slug: string; ownerPubkey: string };
}

/** The invite a token names: signature by the shared codec, exact-token lookup, and the mesh's own key. */
export async function inviteOfToken(
  db: Pick<Db, "invite">,
  token: string,
  now: Date,
): Promise<{ ok: true; invite: FoundInvite } | { ok: false; reason: InviteRefusal }> {
  const verified = verifyInviteToken(token, { now });
  if (!verified.ok && verified.reason === "malformed") return { ok: false, reason: "invite_malformed" };
  if (!verified.ok && verified.reason === "bad_signature") return { ok: false, reason: "invite_bad_signature" };
  const invite = await db.invite.findUnique({
    where: { token },
    select: { id: true, meshId: true, role: true, mesh: { select: { slug: true, ownerPubkey: true } } },
  });
  // A token signed by another key than the mesh's own is no invite of that mesh.
  if (!invite || (verified.payload && verified.payload.owner_pubkey !== invite.mesh.ownerPubkey))
    return { ok: false, reason: "invite_not_found" };
  return { ok: true, invite };
}

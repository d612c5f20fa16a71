import type { MemberRole } from "@/generated/prisma/enums";
import { ed25519Verify } from "@/server/core/crypto/ed25519";
import { tryFromBase64Url, utf8 } from "@/server/core/encoding";
import { AppError } from "@/server/core/errors";
import { joinLock, lockStatement } from "@/server/core/locks";
import type { UserActor } from "../actor";
import { recordAudit } from "../audit/record-audit";
import { notifyBrokers } from "../broker/mesh-events";
import type { ServiceContext } from "../context";
import { isBanned, isUserBanned } from "../meshes/members-bans";
import { visibleTo } from "../meshes/access";
import { DEVICE_PROOF_MAX_SKEW_MS, deviceProofText, parseDeviceProof } from "@/server/core/crypto/device-proof";
import { BROWSER_DEVICES_PER_USER, type TRegisterBrowserDeviceInput } from "./register-browser-device.schema";
import { liveMembershipOf } from "./membership";

// A browser device (issue 45; docs/mesh-api.md, "Browser devices"): the chat page makes a key pair in the
// person's browser and registers its public halves here, signed in. The device is a member of the person
// whose parent is their key-less member (the one they joined with in the browser, or the owner's), so it
// ends however that member ends (removal, ban, leave: members.ts, leave-mesh.ts) and the broker refuses it
// once the parent is gone (peer-connection.ts). The secret halves never leave the browser.

/** True when the proof is recent and signed by `peerPubkey` over this person, mesh and keys. */
function verifyDeviceProof(
  proof: string,
  fields: { userId: string; meshId: string; peerPubkey: string; boxPubkey: string },
  now: number,
): boolean {
  const parsed = parseDeviceProof(proof);
  if (!parsed || Math.abs(now - parsed.ts) > DEVICE_PROOF_MAX_SKEW_MS) return false;
  const key = tryFromBase64Url(fields.peerPubkey, 32);
  if (!key) return false;
  return ed25519Verify(utf8(deviceProofText({ ...fields, ts: parsed.ts })), parsed.signature, key);
}

/**
 * Registers keys made in the signed-in person's browser as a device of theirs in the mesh. Needs a proof
 * by the new key, a live key-less member of the person in the mesh (else NOT_FOUND for a mesh they cannot
 * see, FORBIDDEN `browser_membership_required` for one they reach only through command-line devices), and
 * fewer than BROWSER_DEVICES_PER_USER live browser devices there. The same keys again answer the same device.
 */
export async function registerBrowserDevice(ctx: ServiceContext<UserActor>, input: TRegisterBrowserDeviceInput) {
  const { actor } = ctx;
  const now = ctx.now();
  const fields = {
    userId: actor.userId,
    meshId: input.meshId,
    peerPubkey: input.peerPubkey,
    boxPubkey: input.boxPubkey,
  };
  if (!verifyDeviceProof(input.proof, fields, now.getTime())) throw new AppError("key_proof_invalid");
  return ctx.db.$transaction(async (tx) => {
    // The person's join lock (join-as-user.ts, members.ts's ban): a device is not made beside a ban or a
    // join of the same person in flight, and two registrations of one person go one at a time (the cap).
    const lock = lockStatement("pg_advisory_xact_lock", joinLock(input.meshId, actor.userId));
    await tx.$executeRawUnsafe(lock.text, ...lock.values);
    const parent = await tx.member.findFirst({
      where: liveMembershipOf(input.meshId, actor.userId),
      select: {
        id: true,
        role: true,
        groups: true,
        inviteId: true,
        displayName: true,
        mesh: { select: { slug: true } },
      },
    });
    if (!parent) {
      const visible = await tx.mesh.count({
        where: { id: input.meshId, archivedAt: null, ...visibleTo(actor.userId) },
      });
      throw visible > 0
        ? new AppError("FORBIDDEN", "browser_membership_required")
        : new AppError("NOT_FOUND", "mesh_not_found");
    }
    if (await isUserBanned(tx, input.meshId, actor.userId)) throw new AppError("banned");
    if (await isBanned(tx, input.meshId, input.peerPubkey)) throw new AppError("peer_banned");
    const existing = await tx.member.findUnique({
      where: { meshId_peerPubkey: { meshId: input.meshId, peerPubkey: input.peerPubkey } },
      select: { id: true, role: true, displayName: true, parentMemberId: true, revokedAt: true, boxPubkey: true },
    });
    const answer = (m: { id: string; role: MemberRole; displayName: string }, rejoined: boolean) => ({
      meshId: input.meshId,
      meshSlug: parent.mesh.slug,
      memberId: m.id,
      parentMemberId: parent.id,
      role: m.role,
      displayName: m.displayName,
      rejoined,
    });
    if (existing) {
      // The same browser asking again (a reload before the answer came): the device it has.
      if (existing.parentMemberId === parent.id && !existing.revokedAt && existing.boxPubkey === input.boxPubkey)
        return answer(existing, true);
      throw new AppError("key_in_use");
    }
    const live = await tx.member.count({
      where: { meshId: input.meshId, userId: actor.userId, browserDevice: true, revokedAt: null },
    });
    if (live >= BROWSER_DEVICES_PER_USER)
      throw new AppError("CONFLICT", "browser_device_limit", { max: BROWSER_DEVICES_PER_USER });
    const member = await tx.member.create({
      data: {
        meshId: input.meshId,
        userId: actor.userId,
        peerPubkey: input.peerPubkey,
        boxPubkey: input.boxPubkey,
        displayName: input.displayName ?? parent.displayName,
        // As a session member: a device never outranks a mesh admin (the owner's powers stay with the owner).
        role: parent.role === "owner" ? "admin" : parent.role,
        groups: parent.groups,
        inviteId: parent.inviteId,
        parentMemberId: parent.id,
        browserDevice: true,
        joinedAt: now,
      },
      select: { id: true, role: true, displayName: true },
    });
    await recordAudit(tx, {
      meshId: input.meshId,
      type: "member_joined",
      actorUserId: actor.userId,
      actorMemberId: member.id,
      metadata: { via: "browser_device", parentMemberId: parent.id, role: member.role },
    });
    await notifyBrokers(tx, { t: "joined", meshId: input.meshId, memberId: member.id });
    return answer(member, false);
  });
}

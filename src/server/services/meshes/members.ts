import type { ServiceContext } from "../context";
import { z } from "zod";
import { AppError } from "@/server/core/errors";
import type { Prisma } from "@/server/core/db";
import type { UserActor } from "../actor";
import { recordAudit } from "../audit/record-audit";
import { notifyBrokers } from "../broker/mesh-events";
import { visibleTo } from "./access";
import { ADMIN_ASSIGNABLE_ROLES, roleOfUser } from "./member-roles";
import { TRemoveMemberInput, TChangeRoleInput, TSetGroupsInput, TUnbanInput, ZMeshBansInput } from "./members.schema";

// Member control (docs/mesh-api.md, "Members"): the owner manages everyone but themself; a mesh admin
// manages members and observers. Removal revokes the member, closes its sockets on every broker node
// (NOTIFY in the same transaction), drops its queue and raises the mesh's key epoch; a ban also keeps
// its peer key from joining again with any invite.

const ADMIN_MANAGES = new Set<string>(ADMIN_ASSIGNABLE_ROLES);

type Manager = { kind: "owner" | "admin"; meshId: string; memberId: string | null };

/** The actor's power over the mesh, read in the transaction; strangers get the mesh's NOT_FOUND. */
async function managerOf(tx: Prisma.TransactionClient, actor: UserActor, meshId: string): Promise<Manager> {
  const mesh = await tx.mesh.findFirst({
    where: { id: meshId, ...visibleTo(actor.userId) },
    select: {
      ownerUserId: true,
      archivedAt: true,
      members: { where: { userId: actor.userId, revokedAt: null }, select: { id: true, role: true } },
    },
  });
  if (!mesh) throw new AppError("NOT_FOUND", "mesh_not_found");
  const role = roleOfUser(
    mesh.ownerUserId === actor.userId,
    mesh.members.map((m) => m.role),
    undefined,
  );
  const mine = mesh.members.find((m) => m.role === role) ?? mesh.members[0];
  if (role === "owner") return { kind: "owner", meshId, memberId: mine?.id ?? null };
  if (role === "admin" && mine) return { kind: "admin", meshId, memberId: mine.id };
  throw new AppError("FORBIDDEN", "owner_or_admin_only");
}

/** The target member, locked for the change; the owner's own membership is nobody's to manage. */
async function targetOf(tx: Prisma.TransactionClient, manager: Manager, memberId: string) {
  const rows = await tx.$queryRaw<
    { id: string }[]
  >`SELECT id::text FROM members WHERE id = ${memberId}::uuid AND mesh_id = ${manager.meshId}::uuid FOR UPDATE`;
  if (rows.length === 0) throw new AppError("NOT_FOUND", "member_not_found");
  const member = await tx.member.findUniqueOrThrow({
    where: { id: memberId },
    select: {
      id: true,
      role: true,
      userId: true,
      peerPubkey: true,
      displayName: true,
      revokedAt: true,
      mesh: { select: { ownerUserId: true } },
    },
  });
  // The owner's devices are the owner's to remove; the owner's own (key-less) membership is nobody's.
  if (
    member.role === "owner" ||
    (member.userId !== null && member.userId === member.mesh.ownerUserId && member.peerPubkey === null)
  )
    throw new AppError("FORBIDDEN", "owner_not_manageable");
  if (manager.kind === "admin" && member.userId !== null && member.userId === member.mesh.ownerUserId)
    throw new AppError("FORBIDDEN", "owner_not_manageable");
  if (manager.kind === "admin" && !ADMIN_MANAGES.has(member.role))
    throw new AppError("FORBIDDEN", "admin_manages_members_only");
  return member;
}

/** Raises the mesh's key epoch (after anyone leaves) and returns the new one. */
export async function raiseKeyEpoch(tx: Prisma.TransactionClient, meshId: string): Promise<number> {
  const mesh = await tx.mesh.update({
    where: { id: meshId },
    data: { keyEpoch: { increment: 1 } },
    select: { keyEpoch: true },
  });
  return mesh.keyEpoch;
}

/** Ends a membership on the spot: live presences closed, queue dropped. Returns the copies dropped. */
export async function endMembership(tx: Prisma.TransactionClient, memberId: string, now: Date): Promise<number> {
  await tx.member.update({ where: { id: memberId }, data: { revokedAt: now } });
  await tx.presence.updateMany({ where: { memberId, disconnectedAt: null }, data: { disconnectedAt: now } });
  const dropped = await tx.messageRecipient.deleteMany({ where: { memberId } });
  return dropped.count;
}

/**
 * Removes a member (owner, or mesh admin for members and observers); with `ban`, its peer key cannot
 * join again until unbanned. Removing a member who already left only adds the ban, when asked.
 */
export async function removeMember(ctx: ServiceContext<UserActor>, input: TRemoveMemberInput) {
  const ban = input.ban ?? false;
  const now = ctx.now();
  return ctx.db.$transaction(async (tx) => {
    const manager = await managerOf(tx, ctx.actor, input.meshId);
    const member = await targetOf(tx, manager, input.memberId);
    if (ban && !member.peerPubkey) throw new AppError("CONFLICT", "no_peer_key_to_ban");
    let keyEpoch: number | null = null;
    let droppedMessages = 0;
    if (!member.revokedAt) {
      droppedMessages = await endMembership(tx, member.id, now);
      keyEpoch = await raiseKeyEpoch(tx, input.meshId);
      await recordAudit(tx, {
        meshId: input.meshId,
        type: "member_removed",
        actorUserId: ctx.actor.userId,
        actorMemberId: manager.memberId,
        metadata: {
          memberId: member.id,
          displayName: member.displayName,
          role: member.role,
          droppedMessages,
          keyEpoch,
        },
      });
    }
    let banned = false;
    if (ban && member.peerPubkey) {
      const created = await tx.meshBan.createMany({
        data: [{ meshId: input.meshId, peerPubkey: member.peerPubkey, bannedByUserId: ctx.actor.userId }],
        skipDuplicates: true,
      });
      banned = true;
      if (created.count > 0) {
        await recordAudit(tx, {
          meshId: input.meshId,
          type: "member_banned",
          actorUserId: ctx.actor.userId,
          actorMemberId: manager.memberId,
          metadata: { memberId: member.id, displayName: member.displayName, peerPubkey: member.peerPubkey },
        });
      }
    }
    if (keyEpoch !== null) {
      // The new epoch first: a broker that has dropped the member from its lists already refuses
      // whole-mesh messages sealed under the old key.
      await notifyBrokers(
        tx,
        { t: "epoch", meshId: input.meshId, epoch: keyEpoch },
        { t: "ended", meshId: input.meshId, memberId: member.id, reason: "removed" },
      );
    }
    return {
      meshId: input.meshId,
      memberId: member.id,
      removedAt: member.revokedAt ?? now,
      banned,
      droppedMessages,
      keyEpoch,
    };
  });
}

/** Changes a live member's role; connected sockets take it at once (an observer stops sending). */
export async function changeMemberRole(ctx: ServiceContext<UserActor>, input: TChangeRoleInput) {
  return ctx.db.$transaction(async (tx) => {
    const manager = await managerOf(tx, ctx.actor, input.meshId);
    const member = await targetOf(tx, manager, input.memberId);
    if (member.revokedAt) throw new AppError("NOT_FOUND", "member_not_found");
    if (manager.kind === "admin" && !ADMIN_MANAGES.has(input.role))
      throw new AppError("FORBIDDEN", "admin_manages_members_only");
    if (member.role !== input.role) {
      await tx.member.update({ where: { id: member.id }, data: { role: input.role } });
      await recordAudit(tx, {
        meshId: input.meshId,
        type: "role_changed",
        actorUserId: ctx.actor.userId,
        actorMemberId: manager.memberId,
        metadata: { memberId: member.id, displayName: member.displayName, from: member.role, to: input.role },
      });
      await notifyBrokers(tx, { t: "role", meshId: input.meshId, memberId: member.id, role: input.role });
    }
    return { meshId: input.meshId, memberId: member.id, role: input.role };
  });
}

/**
 * Sets a member's groups (the owner or an admin; docs/cli.md, "Groups"): a message to `@group` goes to
 * the group's members. Clients read the groups from `peers`, so the change shows at their next listing.
 */
export async function setMemberGroups(ctx: ServiceContext<UserActor>, input: TSetGroupsInput) {
  return ctx.db.$transaction(async (tx) => {
    const manager = await managerOf(tx, ctx.actor, input.meshId);
    const member = await targetOf(tx, manager, input.memberId);
    if (member.revokedAt) throw new AppError("NOT_FOUND", "member_not_found");
    await tx.member.update({ where: { id: member.id }, data: { groups: input.groups } });
    return { meshId: input.meshId, memberId: member.id, groups: input.groups };
  });
}

/** Lifts the ban of a peer key. */
export async function unbanPeer(ctx: ServiceContext<UserActor>, input: TUnbanInput) {
  return ctx.db.$transaction(async (tx) => {
    const manager = await managerOf(tx, ctx.actor, input.meshId);
    const deleted = await tx.meshBan.deleteMany({ where: { meshId: input.meshId, peerPubkey: input.peerPubkey } });
    if (deleted.count === 0) throw new AppError("NOT_FOUND", "ban_not_found");
    await recordAudit(tx, {
      meshId: input.meshId,
      type: "member_unbanned",
      actorUserId: ctx.actor.userId,
      actorMemberId: manager.memberId,
      metadata: { peerPubkey: input.peerPubkey },
    });
    return { meshId: input.meshId, peerPubkey: input.peerPubkey, unbanned: true as const };
  });
}

/** The mesh's bans, newest first, with the name the peer last had (managers only; at most 500). */
export async function listMeshBans(ctx: ServiceContext<UserActor>, input: z.output<typeof ZMeshBansInput>) {
  const { meshId } = input;
  await ctx.db.$transaction((tx) => managerOf(tx, ctx.actor, meshId));
  const bans = await ctx.db.meshBan.findMany({
    where: { meshId },
    orderBy: { createdAt: "desc" },
    take: 500,
    select: { peerPubkey: true, createdAt: true, bannedBy: { select: { name: true } } },
  });
  const names = await ctx.db.member.findMany({
    where: { meshId, peerPubkey: { in: bans.map((b) => b.peerPubkey) } },
    select: { peerPubkey: true, displayName: true },
  });
  const nameOf = new Map(names.map((m) => [m.peerPubkey, m.displayName]));
  return {
    items: bans.map((b) => ({
      peerPubkey: b.peerPubkey,
      displayName: nameOf.get(b.peerPubkey) ?? null,
      bannedAt: b.createdAt,
      bannedByName: b.bannedBy?.name ?? null,
    })),
  };
}

/** True when the peer key is banned from the mesh (the join check). */
export async function isBanned(
  tx: Pick<Prisma.TransactionClient, "meshBan">,
  meshId: string,
  peerPubkey: string,
): Promise<boolean> {
  return (await tx.meshBan.count({ where: { meshId, peerPubkey } })) > 0;
}

import type { ServiceContext } from "../context";
import { z } from "zod";
import { AppError } from "@/server/core/errors";
import { joinLock, lockStatement } from "@/server/core/locks";
import type { Prisma } from "@/server/core/db";
import type { UserActor } from "../actor";
import { recordAudit } from "../audit/record-audit";
import { notifyBrokers } from "../broker/mesh-events";
import { visibleTo } from "./access";
import { ADMIN_ASSIGNABLE_ROLES, roleOfUser } from "./member-roles";
import { writeBan } from "./members-bans";
import {
  TRemoveMemberInput,
  TChangeRoleInput,
  TSetGroupsInput,
  TUnbanInput,
  TUnbanUserInput,
  ZMeshBansInput,
} from "./members.schema";

// Member control (docs/mesh-api.md, "Members"): the owner manages everyone but themself; a mesh admin
// manages members and observers. Removal revokes the member, closes its sockets on every broker node
// (NOTIFY in the same transaction), drops its queue and raises the mesh's key epoch; a ban also keeps
// its peer key, and the person behind it, from joining again (the rule: members-bans.ts).

const ADMIN_MANAGES = new Set<string>(ADMIN_ASSIGNABLE_ROLES);

type Manager = { kind: "owner" | "admin"; meshId: string; memberId: string | null };

/** The actor's power over the mesh, read in the transaction; strangers get the mesh's NOT_FOUND. */
export async function managerOf(tx: Prisma.TransactionClient, actor: UserActor, meshId: string): Promise<Manager> {
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
      inviteId: true,
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

/**
 * The live session members of the given members (docs/cli.md, "One identity per session") that are not
 * among them: a member that ends takes its sessions along, whichever way it ends.
 */
export async function sessionMembersOf(tx: Prisma.TransactionClient, memberIds: readonly string[]) {
  if (memberIds.length === 0) return [];
  return tx.member.findMany({
    where: { parentMemberId: { in: [...memberIds] }, id: { notIn: [...memberIds] }, revokedAt: null },
    orderBy: { joinedAt: "asc" },
    select: {
      id: true,
      role: true,
      displayName: true,
      peerPubkey: true,
      userId: true,
      revokedAt: true,
      inviteId: true,
    },
  });
}

/** Ends a membership on the spot: live presences closed, queue dropped. Returns the copies dropped. */
export async function endMembership(tx: Prisma.TransactionClient, memberId: string, now: Date): Promise<number> {
  await tx.member.update({ where: { id: memberId }, data: { revokedAt: now } });
  await tx.presence.updateMany({ where: { memberId, disconnectedAt: null }, data: { disconnectedAt: now } });
  const dropped = await tx.messageRecipient.deleteMany({ where: { memberId } });
  return dropped.count;
}

/**
 * Removes a member (owner, or mesh admin for members and observers). With `ban`, its peer key cannot
 * join again until unbanned, nor can the person behind it when it is linked to an account (their other
 * members in the mesh end too), and the invite the banned members joined with is revoked (members-bans.ts).
 * With `revokeInvites`, the invites the person issued in the mesh are revoked (they stop working anyway
 * while the person is no mesh admin: invites/invite-issuer.ts; revoked, a later promotion does not bring
 * them back). Removing a member who already left only adds the ban and revocations, when asked.
 */
export async function removeMember(ctx: ServiceContext<UserActor>, input: TRemoveMemberInput) {
  const ban = input.ban ?? false;
  const now = ctx.now();
  return ctx.db.$transaction(async (tx) => {
    const manager = await managerOf(tx, ctx.actor, input.meshId);
    if (ban) {
      // The browser join's lock of the person (join-as-user.ts), before the member's row lock as the join
      // takes them: a join of the person waits for the ban, or the ban finds the member it made.
      const linked = await tx.member.findFirst({
        where: { id: input.memberId, meshId: input.meshId },
        select: { userId: true },
      });
      if (linked?.userId) {
        const lock = lockStatement("pg_advisory_xact_lock", joinLock(input.meshId, linked.userId));
        await tx.$executeRawUnsafe(lock.text, ...lock.values);
      }
    }
    const member = await targetOf(tx, manager, input.memberId);
    // The person behind the member: banned with it, unless it is the mesh's owner (their device's key only).
    const person = member.userId !== null && member.userId !== member.mesh.ownerUserId ? member.userId : null;
    if (ban && !member.peerPubkey && !person) throw new AppError("CONFLICT", "no_peer_key_to_ban");
    const others =
      ban && person
        ? await tx.member.findMany({
            where: { meshId: input.meshId, userId: person, id: { not: member.id } },
            select: { id: true, role: true, displayName: true, peerPubkey: true, revokedAt: true, inviteId: true },
          })
        : [];
    // A mesh admin bans a person only when it may manage every member of theirs.
    if (manager.kind === "admin" && others.some((o) => !o.revokedAt && !ADMIN_MANAGES.has(o.role)))
      throw new AppError("FORBIDDEN", "admin_manages_members_only");
    // The sessions of whoever ends end with them (a session member lives only while its parent does).
    const sessions = await sessionMembersOf(
      tx,
      [member, ...others].map((m) => m.id),
    );
    const ending = [member, ...others, ...sessions].filter((m) => !m.revokedAt);
    const keyEpoch = ending.length > 0 ? await raiseKeyEpoch(tx, input.meshId) : null;
    let droppedMessages = 0;
    for (const m of ending) {
      const dropped = await endMembership(tx, m.id, now);
      if (m.id === member.id) droppedMessages = dropped;
      await recordAudit(tx, {
        meshId: input.meshId,
        type: "member_removed",
        actorUserId: ctx.actor.userId,
        actorMemberId: manager.memberId,
        metadata: { memberId: m.id, displayName: m.displayName, role: m.role, droppedMessages: dropped, keyEpoch },
      });
    }

    let banned = false;
    const revoke = new Set<string>();
    if (ban) {
      const banning = [member, ...others];
      const keys = banning.flatMap((m) => (m.peerPubkey ? [m.peerPubkey] : []));
      const added = await writeBan(tx, {
        meshId: input.meshId,
        keys,
        userId: person,
        bannedByUserId: ctx.actor.userId,
      });
      banned = true;
      if (added) {
        await recordAudit(tx, {
          meshId: input.meshId,
          type: "member_banned",
          actorUserId: ctx.actor.userId,
          actorMemberId: manager.memberId,
          metadata: {
            memberId: member.id,
            displayName: member.displayName,
            ...(member.peerPubkey ? { peerPubkey: member.peerPubkey } : {}),
            ...(person ? { userId: person } : {}),
          },
        });
      }
      for (const m of banning) if (m.inviteId) revoke.add(m.inviteId);
    }
    const invitesRevoked = await revokeInvitesOf(tx, ctx, manager, {
      meshId: input.meshId,
      usedBy: [...revoke],
      issuedBy: input.revokeInvites && person ? person : null,
      now,
    });
    if (keyEpoch !== null) {
      // The new epoch first: a broker that has dropped the member from its lists already refuses
      // whole-mesh messages sealed under the old key.
      await notifyBrokers(
        tx,
        { t: "epoch", meshId: input.meshId, epoch: keyEpoch },
        ...ending.map((m) => ({
          t: "ended" as const,
          meshId: input.meshId,
          memberId: m.id,
          reason: "removed" as const,
        })),
      );
    }
    return {
      meshId: input.meshId,
      memberId: member.id,
      removedAt: member.revokedAt ?? now,
      banned,
      droppedMessages,
      keyEpoch,
      invitesRevoked,
    };
  });
}

/**
 * Revokes, in the removal's transaction, the invites banned members joined with (`usedBy`) and those the
 * removed person issued in the mesh (`issuedBy`); audit `invite_revoked` each. Returns how many.
 */
async function revokeInvitesOf(
  tx: Prisma.TransactionClient,
  ctx: ServiceContext<UserActor>,
  manager: Manager,
  what: { meshId: string; usedBy: string[]; issuedBy: string | null; now: Date },
): Promise<number> {
  const or: Prisma.InviteWhereInput[] = [];
  if (what.usedBy.length > 0) or.push({ id: { in: what.usedBy } });
  if (what.issuedBy) or.push({ createdByUserId: what.issuedBy });
  if (or.length === 0) return 0;
  const invites = await tx.invite.findMany({
    where: { meshId: what.meshId, revokedAt: null, OR: or },
    select: { id: true, createdByUserId: true },
  });
  if (invites.length === 0) return 0;
  await tx.invite.updateMany({ where: { id: { in: invites.map((i) => i.id) } }, data: { revokedAt: what.now } });
  for (const invite of invites)
    await recordAudit(tx, {
      meshId: what.meshId,
      type: "invite_revoked",
      actorUserId: ctx.actor.userId,
      actorMemberId: manager.memberId,
      metadata: {
        inviteId: invite.id,
        reason: invite.createdByUserId === what.issuedBy ? "issuer_removed" : "used_by_banned",
      },
    });
  return invites.length;
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

/** Lifts the ban of a key. */
export async function unbanPeer(ctx: ServiceContext<UserActor>, input: TUnbanInput) {
  await liftBan(ctx, input.meshId, { peerPubkey: input.peerPubkey });
  return { meshId: input.meshId, peerPubkey: input.peerPubkey, unbanned: true as const };
}

/** Lifts the ban of a person (and of the keys banned with them). */
export async function unbanUser(ctx: ServiceContext<UserActor>, input: TUnbanUserInput) {
  await liftBan(ctx, input.meshId, { userId: input.userId });
  return { meshId: input.meshId, userId: input.userId, unbanned: true as const };
}

/** Deletes the mesh's bans of one key or one person (managers only; NOT_FOUND when none) and records it. */
async function liftBan(
  ctx: ServiceContext<UserActor>,
  meshId: string,
  banned: { peerPubkey: string } | { userId: string },
): Promise<void> {
  await ctx.db.$transaction(async (tx) => {
    const manager = await managerOf(tx, ctx.actor, meshId);
    const deleted = await tx.meshBan.deleteMany({ where: { meshId, ...banned } });
    if (deleted.count === 0) throw new AppError("NOT_FOUND", "ban_not_found");
    await recordAudit(tx, {
      meshId,
      type: "member_unbanned",
      actorUserId: ctx.actor.userId,
      actorMemberId: manager.memberId,
      metadata: banned,
    });
  });
}

/**
 * The mesh's bans, newest first (managers only; at most 500): one row per banned key (with the person
 * when it was banned as theirs) or per person banned without a key, with the name the member last had.
 */
export async function listMeshBans(ctx: ServiceContext<UserActor>, input: z.output<typeof ZMeshBansInput>) {
  const { meshId } = input;
  await ctx.db.$transaction((tx) => managerOf(tx, ctx.actor, meshId));
  const bans = await ctx.db.meshBan.findMany({
    where: { meshId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 500,
    select: { id: true, peerPubkey: true, userId: true, createdAt: true, bannedBy: { select: { name: true } } },
  });
  const keys = bans.flatMap((b) => (b.peerPubkey ? [b.peerPubkey] : []));
  const userIds = [...new Set(bans.flatMap((b) => (b.userId ? [b.userId] : [])))];
  const [members, users] = await Promise.all([
    ctx.db.member.findMany({
      where: { meshId, OR: [{ peerPubkey: { in: keys } }, { userId: { in: userIds }, peerPubkey: null }] },
      orderBy: { joinedAt: "asc" },
      select: { peerPubkey: true, userId: true, displayName: true },
    }),
    ctx.db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true } }),
  ]);
  const nameOfKey = new Map(members.flatMap((m) => (m.peerPubkey ? [[m.peerPubkey, m.displayName] as const] : [])));
  const nameOfUser = new Map(
    members.flatMap((m) => (m.userId && !m.peerPubkey ? [[m.userId, m.displayName] as const] : [])),
  );
  const userName = new Map(users.map((u) => [u.id, u.name]));
  return {
    items: bans.map((b) => ({
      id: b.id,
      peerPubkey: b.peerPubkey,
      userId: b.userId,
      userName: b.userId ? (userName.get(b.userId) ?? null) : null,
      displayName:
        (b.peerPubkey ? nameOfKey.get(b.peerPubkey) : undefined) ??
        (b.userId ? nameOfUser.get(b.userId) : undefined) ??
        null,
      bannedAt: b.createdAt,
      bannedByName: b.bannedBy?.name ?? null,
    })),
  };
}

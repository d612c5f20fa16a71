import { AppError } from "@/server/core/errors";
import type { UserActor } from "../actor";
import type { ServiceContext } from "../context";
import type { TKeyBackupInput, TPutKeyBackupInput } from "./key-backups.schema";

// Key backup (docs/mesh-api.md, "Key backup"): the browser seals a device's secret keys with a key it
// derives from the person's passphrase (scrypt, then secretbox) and stores the result here, so another
// browser of the person can restore the device. The server never sees the passphrase or the keys.

/** Stores (or replaces) the sealed keys of one live browser device of the signed-in person. */
export async function putKeyBackup(ctx: ServiceContext<UserActor>, input: TPutKeyBackupInput) {
  const device = await ctx.db.member.findFirst({
    where: {
      id: input.memberId,
      meshId: input.meshId,
      userId: ctx.actor.userId,
      browserDevice: true,
      revokedAt: null,
    },
    select: { id: true },
  });
  if (!device) throw new AppError("NOT_FOUND", "member_not_found");
  const row = await ctx.db.keyBackup.upsert({
    where: { userId_memberId: { userId: ctx.actor.userId, memberId: device.id } },
    create: { userId: ctx.actor.userId, meshId: input.meshId, memberId: device.id, sealed: input.sealed },
    update: { sealed: input.sealed },
    select: { memberId: true, updatedAt: true },
  });
  return { meshId: input.meshId, memberId: row.memberId, updatedAt: row.updatedAt };
}

/** The sealed keys of one live browser device of the signed-in person (NOT_FOUND for anything else). */
export async function getKeyBackup(ctx: ServiceContext<UserActor>, input: TKeyBackupInput) {
  const row = await ctx.db.keyBackup.findFirst({
    where: {
      memberId: input.memberId,
      meshId: input.meshId,
      userId: ctx.actor.userId,
      member: { revokedAt: null, browserDevice: true },
    },
    select: { memberId: true, sealed: true, updatedAt: true },
  });
  if (!row) throw new AppError("NOT_FOUND", "key_backup_not_found");
  return { meshId: input.meshId, memberId: row.memberId, sealed: row.sealed, updatedAt: row.updatedAt };
}

import { randomBytes } from "node:crypto";
import { ed25519KeyPairFromSeed, x25519KeyPairFromSecretKey } from "@/server/core/crypto/ed25519";
import { toBase64Url } from "@/server/core/encoding";
import { AppError } from "@/server/core/errors";
import { uuidv7 } from "@/server/core/ids";
import type { UserActor } from "../actor";
import { recordAudit } from "../audit/record-audit";
import { notifyBrokers } from "../broker/mesh-events";
import type { ServiceContext } from "../context";
import { managerOf } from "../meshes/members";
import { boxKeyAad, signKeyAad } from "./bot-keys";
import { REVIEW_BOT_NAME, liveBot } from "./live-bot";
import type { TReviewBotMeshInput } from "./review-bots.schema";

/**
 * Adds the mesh's review bot (docs/mesh-api.md, "Review bot"): a member named "Review bot" with fresh
 * ed25519 and X25519 keys made here, whose secret halves are kept sealed with SECRETS_KEYS for the
 * worker. The owner or a mesh admin (as member removal: members.ts); a stranger gets NOT_FOUND, an
 * archived mesh `mesh_archived`, a mesh that has a live bot CONFLICT `review_bot_exists`.
 */
export async function addReviewBot(ctx: ServiceContext<UserActor>, input: TReviewBotMeshInput) {
  const now = ctx.now();
  const signSeed = randomBytes(32);
  const boxSecretKey = randomBytes(32);
  try {
    const peerPubkey = toBase64Url(ed25519KeyPairFromSeed(signSeed).publicKey);
    const boxPubkey = toBase64Url(x25519KeyPairFromSecretKey(boxSecretKey).publicKey);
    return await ctx.db.$transaction(async (tx) => {
      const manager = await managerOf(tx, ctx.actor, input.meshId);
      // One add at a time per mesh (NO KEY UPDATE: audit inserts' KEY SHARE locks still pass).
      const mesh = await tx.$queryRaw<
        { archived: boolean }[]
      >`SELECT archived_at IS NOT NULL AS archived FROM meshes WHERE id = ${input.meshId}::uuid FOR NO KEY UPDATE`;
      if (mesh[0]?.archived) throw new AppError("mesh_archived");
      if (await liveBot(tx, input.meshId)) throw new AppError("CONFLICT", "review_bot_exists");
      // Bots ended another way (removed or banned as members) leave their rows: their keys go now.
      await tx.reviewBot.deleteMany({ where: { meshId: input.meshId } });
      const botId = uuidv7(now.getTime());
      const member = await tx.member.create({
        data: {
          meshId: input.meshId,
          userId: null,
          peerPubkey,
          boxPubkey,
          displayName: REVIEW_BOT_NAME,
          role: "member",
          joinedAt: now,
        },
        select: { id: true, displayName: true },
      });
      await tx.reviewBot.create({
        data: {
          id: botId,
          meshId: input.meshId,
          memberId: member.id,
          createdByUserId: ctx.actor.userId,
          signSecretKeyEnc: ctx.sealer.seal(signSeed, signKeyAad(botId)),
          boxSecretKeyEnc: ctx.sealer.seal(boxSecretKey, boxKeyAad(botId)),
          createdAt: now,
        },
      });
      await recordAudit(tx, {
        meshId: input.meshId,
        type: "member_joined",
        actorUserId: ctx.actor.userId,
        // As a browser device's join: the new member is the actor; the person who added it is the user.
        actorMemberId: member.id,
        metadata: { via: "review_bot", addedByMemberId: manager.memberId, role: "member" },
      });
      await notifyBrokers(tx, { t: "joined", meshId: input.meshId, memberId: member.id });
      return { botId, memberId: member.id, displayName: member.displayName, peerPubkey };
    });
  } finally {
    signSeed.fill(0);
    boxSecretKey.fill(0);
  }
}

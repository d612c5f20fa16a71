import { createHash } from "node:crypto";
import { MeshClient } from "../../../../broker/client/mesh-client";
import { MeshClientError } from "../../../../broker/client/mesh-client-error";
import type { TMeshConfig } from "../../../../broker/client/config-store";
import { MAX_TARGET_PEERS } from "../../../../broker/protocol/frames";
import { toBase64Url } from "@/server/core/encoding";
import { AppError } from "@/server/core/errors";
import type { SystemActor } from "../actor";
import type { ServiceContext } from "../context";
import { openBotKeys } from "./bot-keys";
import { ZSendAsReviewBotInput, type TSendAsReviewBotInput } from "./review-bots.schema";

/** How long a send may take by default, connecting included. */
export const REVIEW_BOT_SEND_TIMEOUT_MS = 15_000;
/** Failed dials (nothing listening) before the send gives up without waiting for its deadline. */
const UNREACHABLE_TRIES = 3;

/** What `sendAsReviewBot` answers: the broker's message id (null when the group has no other live member) and how many it reaches. */
export interface ReviewBotSent {
  messageId: string | null;
  recipients: number;
}

/**
 * The `send` frame's id for a delivery (docs/protocol.md: a resend with the same id while the first is
 * held is answered with the first message, never stored twice): derived from the bot, group and dedupeId.
 */
export function botMessageId(botId: string, group: string, dedupeId: string): string {
  return `rb-${createHash("sha256").update(`${botId}\n${group}\n${dedupeId}`).digest("base64url")}`;
}

const failed = (reason: string) => new AppError("SERVICE_UNAVAILABLE", "review_bot_send_failed", { reason });

/** The bot's row while it is live (member not revoked, mesh not archived), with what its client needs. */
function liveBotRow(ctx: ServiceContext<SystemActor>, botId: string) {
  return ctx.db.reviewBot.findFirst({
    where: { id: botId, mesh: { archivedAt: null }, member: { revokedAt: null, peerPubkey: { not: null } } },
    select: {
      id: true,
      meshId: true,
      memberId: true,
      createdAt: true,
      signSecretKeyEnc: true,
      boxSecretKeyEnc: true,
      member: { select: { displayName: true, role: true } },
      mesh: { select: { slug: true, rootKeyEnc: true } },
    },
  });
}

/**
 * Sends `text` as the mesh's review bot to every other live member of `@group`, end-to-end encrypted as
 * `mesh send --to @group` does (one direct message sealed for each member's X25519 key): opens the bot's
 * sealed keys, connects to the broker at `ctx.settings.brokerUrl` as the peer it is, waits for the
 * broker's `sent` (stored), closes. The frame's id comes from `dedupeId`, so a retry after a lost answer
 * is not stored or shown twice. A group without another live member sends nothing: `{ messageId: null,
 * recipients: 0 }`. Throws AppError `bot_gone` (not retryable) when the bot is removed, banned, its mesh
 * archived or deleted; SERVICE_UNAVAILABLE `review_bot_send_failed` (retryable, `details.reason`:
 * timeout, unreachable or the broker's code) for the rest; UNPROCESSABLE `group_too_large` above
 * MAX_TARGET_PEERS members.
 */
export async function sendAsReviewBot(
  ctx: ServiceContext<SystemActor>,
  rawInput: TSendAsReviewBotInput,
): Promise<ReviewBotSent> {
  const input = ZSendAsReviewBotInput.parse(rawInput);
  const bot = await liveBotRow(ctx, input.botId);
  if (!bot) throw new AppError("bot_gone");
  const keys = openBotKeys(ctx.sealer, bot);
  const rootKey = ctx.sealer.open(bot.mesh.rootKeyEnc, `mesh:${bot.meshId}:root-key`);
  const config: TMeshConfig = {
    version: 1,
    meshId: bot.meshId,
    meshSlug: bot.mesh.slug,
    memberId: bot.memberId,
    role: bot.member.role,
    displayName: bot.member.displayName,
    brokerUrl: ctx.settings.brokerUrl,
    joinedAt: bot.createdAt.toISOString(),
    meshRootKey: toBase64Url(rootKey),
    signSeed: toBase64Url(keys.signSeed),
    boxSecretKey: toBase64Url(keys.boxSecretKey),
  };
  keys.signSeed.fill(0);
  keys.boxSecretKey.fill(0);
  rootKey.fill(0);

  const timeoutMs = input.timeoutMs ?? REVIEW_BOT_SEND_TIMEOUT_MS;
  // It only sends: connected with receive=0, the broker pushes it nothing (docs/mesh-api.md, "Review bot").
  const client = new MeshClient(config, { receive: false, handshakeTimeoutMs: Math.min(timeoutMs, 10_000) });
  let timer: NodeJS.Timeout | undefined;
  let giveUp: (error: Error) => void = () => {};
  const deadline = new Promise<never>((_, reject) => {
    giveUp = reject;
    timer = setTimeout(() => reject(failed("timeout")), timeoutMs);
  });
  let unreachable = 0;
  client.on("disconnected", (end) => {
    if (end.kind === "failed" && !client.connected && ++unreachable >= UNREACHABLE_TRIES) giveUp(failed("unreachable"));
  });
  const work = async (): Promise<ReviewBotSent> => {
    await client.connect();
    const peers = await client.peers();
    const to = peers
      .filter((p) => p.memberId !== bot.memberId && (p.groups ?? []).includes(input.group))
      .map((p) => p.memberId);
    if (to.length === 0) return { messageId: null, recipients: 0 };
    if (to.length > MAX_TARGET_PEERS)
      throw new AppError("UNPROCESSABLE", "group_too_large", { max: MAX_TARGET_PEERS, members: to.length });
    const sent = await client.send(input.text, { to, id: botMessageId(bot.id, input.group, input.dedupeId) });
    return { messageId: sent.messageId, recipients: sent.recipients };
  };
  try {
    return await Promise.race([work(), deadline]);
  } catch (error) {
    if (error instanceof AppError && error.code !== "SERVICE_UNAVAILABLE") throw error;
    // Ended while sending (removed, banned, archived): the database says so for good.
    if (!(await liveBotRow(ctx, input.botId))) throw new AppError("bot_gone");
    if (error instanceof AppError) throw error;
    throw failed(error instanceof MeshClientError ? error.code : "error");
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => {});
  }
}

import type { Sealer } from "../context";

// Where a review bot's secret keys are bound when sealed: the aad names the bot and the key, so a sealed
// value copied to another row or column does not open (docs/secrets.md).

/** The aad of a bot's ed25519 seed. */
export const signKeyAad = (botId: string) => `review-bot:${botId}:sign-seed`;
/** The aad of a bot's X25519 secret key. */
export const boxKeyAad = (botId: string) => `review-bot:${botId}:box-secret-key`;

/** The bot's two secret keys, opened (the caller wipes them when done). */
export function openBotKeys(
  sealer: Sealer,
  bot: { id: string; signSecretKeyEnc: string; boxSecretKeyEnc: string },
): { signSeed: Uint8Array; boxSecretKey: Uint8Array } {
  return {
    signSeed: sealer.open(bot.signSecretKeyEnc, signKeyAad(bot.id)),
    boxSecretKey: sealer.open(bot.boxSecretKeyEnc, boxKeyAad(bot.id)),
  };
}

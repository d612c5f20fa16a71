import { sha256Hex } from "@/server/core/crypto/hash";
import { AppError } from "@/server/core/errors";
import { generateInviteCode, normaliseInviteCode } from "@/server/core/invites";
import type { Sealer, ServiceContext } from "../context";
import { TResolveInviteCodeInput } from "./invite-code.schema";
import { issuerMayInvite } from "./invite-issuer";
import { INVITE_DEFAULT_MAX_USES } from "./invite-state";

// Short invite links (docs/invites.md, "Short links"): an opaque code that stands for an invite's token
// while the invite is usable. Stored twice, never in clear: its SHA-256 (the lookup key) and sealed
// under SECRETS_KEYS (so the mesh page can show the link again).

/** Where a code is sealed: bound to its invite, so a sealed value copied to another row does not open. */
export const inviteCodeAad = (inviteId: string) => `invite:${inviteId}:short-code`;

/** A fresh code for an invite: the code (to show now), its hash and its sealed form (to store). */
export function newInviteCode(sealer: Pick<Sealer, "seal">, inviteId: string) {
  const code = generateInviteCode();
  return { code, shortCodeHash: sha256Hex(code), shortCodeEnc: sealer.seal(code, inviteCodeAad(inviteId)) };
}

/** The code of a stored invite, opened for display (null for an invite issued before short links). */
export function openInviteCode(sealer: Pick<Sealer, "open">, inviteId: string, sealed: string | null): string | null {
  if (!sealed) return null;
  const plain = sealer.open(sealed, inviteCodeAad(inviteId));
  try {
    return plain.toString("utf8");
  } finally {
    plain.fill(0);
  }
}

/**
 * The token a code stands for, while its invite is usable: not expired, not revoked, not used up, its
 * mesh not archived (checked inside the query), its issuer still able to invite (invite-issuer.ts). Every other code (unknown, malformed, expired,
 * revoked, used up) gets the one same refusal, so the answer says nothing about which codes exist.
 * The lookup compares SHA-256 digests, so its timing tells nothing about the code itself.
 */
export async function resolveInviteCode(
  ctx: ServiceContext,
  input: TResolveInviteCodeInput,
): Promise<{ token: string }> {
  const code = normaliseInviteCode(input.code);
  if (!code) throw refusal();
  const now = ctx.now();
  const invite = await ctx.db.invite.findFirst({
    where: {
      shortCodeHash: sha256Hex(code),
      revokedAt: null,
      expiresAt: { gt: now },
      mesh: { archivedAt: null },
      OR: [
        { maxUses: null, usedCount: { lt: INVITE_DEFAULT_MAX_USES } },
        { usedCount: { lt: ctx.db.invite.fields.maxUses } },
      ],
    },
    select: { token: true, meshId: true, createdByUserId: true, mesh: { select: { ownerUserId: true } } },
  });
  if (!invite || !(await issuerMayInvite(ctx.db, invite))) throw refusal();
  return { token: invite.token };
}

const refusal = () => new AppError("NOT_FOUND", "invite_not_found");

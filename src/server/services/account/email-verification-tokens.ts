import { randomBytes } from "node:crypto";
import { z } from "zod";
import { sha256Hex } from "@/server/core/crypto/hash";
import type { Db } from "@/server/core/db";

/** What a mailed link is for. */
export type EmailTokenPurpose = "password_reset" | "verify_email" | "change_email";

/** How long each kind of link works (docs/security.md, "E-mail"). */
export const EMAIL_TOKEN_LIFETIME_MS: Record<EmailTokenPurpose, number> = {
  password_reset: 30 * 60_000,
  verify_email: 24 * 3_600_000,
  change_email: 24 * 3_600_000,
};

/** A link's token as it arrives: 43 base64url characters (32 random bytes). */
export const ZEmailToken = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{43}$/, { error: "link_invalid" });

type TokenDb = Pick<Db, "emailToken">;

/**
 * Issues a single-use token for a link mailed to `email`, stored only as its SHA-256; the user's earlier
 * unused tokens of the same purpose stop working (only the newest link works). Returns the token.
 */
export async function issueEmailToken(
  db: TokenDb,
  input: { userId: string; purpose: EmailTokenPurpose; email: string; now: Date },
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db.emailToken.updateMany({
    where: { userId: input.userId, purpose: input.purpose, usedAt: null },
    data: { usedAt: input.now },
  });
  await db.emailToken.create({
    data: {
      userId: input.userId,
      purpose: input.purpose,
      tokenHash: sha256Hex(token),
      email: input.email,
      expiresAt: new Date(input.now.getTime() + EMAIL_TOKEN_LIFETIME_MS[input.purpose]),
    },
  });
  return token;
}

/**
 * Uses a token once: the user and address it was issued for, or null when it is unknown, of another
 * purpose, used or expired. Two uses racing each other: one wins (a guarded update).
 */
export async function consumeEmailToken(
  db: TokenDb,
  input: { token: string; purpose: EmailTokenPurpose; now: Date },
): Promise<{ userId: string; email: string } | null> {
  const row = await db.emailToken.findUnique({
    where: { tokenHash: sha256Hex(input.token) },
    select: { id: true, userId: true, email: true, purpose: true, usedAt: true, expiresAt: true },
  });
  if (!row || row.purpose !== input.purpose || row.usedAt || row.expiresAt.getTime() <= input.now.getTime()) {
    return null;
  }
  const used = await db.emailToken.updateMany({ where: { id: row.id, usedAt: null }, data: { usedAt: input.now } });
  return used.count === 1 ? { userId: row.userId, email: row.email } : null;
}

/** The page a mailed link opens: `<public base>/<locale>/<page>?token=…`. */
export function emailLink(publicBaseUrl: string, locale: string, page: string, token: string): string {
  const url = new URL(`/${locale}/${page}`, publicBaseUrl);
  url.searchParams.set("token", token);
  return url.toString();
}

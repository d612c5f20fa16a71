import { randomBytes } from "node:crypto";
import { sha256Hex } from "@/server/core/crypto/hash";
import type { Db } from "@/server/core/db";

export const SESSION_MAX_AGE_S = 30 * 24 * 60 * 60;

const hash = sha256Hex;

/** Opens a server-side session row; returns the secret the session cookie carries (stored only hashed). */
export async function openSession(db: Db, userId: string, userAgent?: string | null): Promise<string> {
  const secret = randomBytes(32).toString("base64url");
  await db.session.create({
    data: {
      sessionToken: hash(secret),
      userId,
      expires: new Date(Date.now() + SESSION_MAX_AGE_S * 1000),
      userAgent: userAgent?.slice(0, 300) ?? null,
    },
  });
  return secret;
}

/** The user of a live session, or null when it was closed or has expired. */
export async function findSessionUser(db: Db, secret: string) {
  const row = await db.session.findUnique({
    where: { sessionToken: hash(secret) },
    select: { expires: true, user: { select: { id: true, email: true, name: true, image: true } } },
  });
  if (!row || row.expires.getTime() <= Date.now()) return null;
  return row.user;
}

/** Closes a session (sign-out): the cookie that carried it stops working at once. */
export async function closeSession(db: Db, secret: string): Promise<void> {
  await db.session.deleteMany({ where: { sessionToken: hash(secret) } });
}

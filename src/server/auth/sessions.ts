import { randomBytes } from "node:crypto";
import { sha256Hex } from "@/server/core/crypto/hash";
import type { Db } from "@/server/core/db";

export const SESSION_MAX_AGE_S = 30 * 24 * 60 * 60;
/** `lastSeenAt` is refreshed at most this often: one write per session every few minutes, not per request. */
export const LAST_SEEN_RESOLUTION_MS = 5 * 60 * 1000;

const hash = sha256Hex;

/** Where a sign-in came from, as the session list shows it (both optional, both bounded). */
export interface SessionOrigin {
  userAgent?: string | null;
  ipAddress?: string | null;
}

/** Opens a server-side session row; returns the secret the session cookie carries (stored only hashed). */
export async function openSession(db: Db, userId: string, origin: SessionOrigin = {}): Promise<string> {
  const secret = randomBytes(32).toString("base64url");
  const ip = origin.ipAddress && origin.ipAddress !== "unknown" ? origin.ipAddress.slice(0, 64) : null;
  await db.session.create({
    data: {
      sessionToken: hash(secret),
      userId,
      expires: new Date(Date.now() + SESSION_MAX_AGE_S * 1000),
      userAgent: origin.userAgent?.slice(0, 300) || null,
      ipAddress: ip,
    },
  });
  return secret;
}

/**
 * The user of a live session and the session row's id (its public handle, never the secret), or null
 * when it was closed or has expired. Marks the session as seen now when its mark is older than
 * LAST_SEEN_RESOLUTION_MS.
 */
export async function findSessionUser(db: Db, secret: string, now = new Date()) {
  const row = await db.session.findUnique({
    where: { sessionToken: hash(secret) },
    select: {
      id: true,
      expires: true,
      lastSeenAt: true,
      user: { select: { id: true, email: true, name: true, image: true, emailVerified: true } },
    },
  });
  if (!row || row.expires.getTime() <= now.getTime()) return null;
  if (now.getTime() - row.lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS) {
    await db.session.updateMany({ where: { id: row.id }, data: { lastSeenAt: now } });
  }
  return { ...row.user, emailVerified: row.user.emailVerified !== null, sessionId: row.id };
}

/** Closes a session (sign-out): the cookie that carried it stops working at once. */
export async function closeSession(db: Db, secret: string): Promise<void> {
  await db.session.deleteMany({ where: { sessionToken: hash(secret) } });
}

import type { Db } from "@/server/core/db";
import { AppError } from "@/server/core/errors";
import type { UserActor } from "../actor";
import { ZSessionIdInput, type CurrentSession, type TSessionIdInput } from "./schemas";

/** At most this many sessions are listed (a user rarely has more than a handful). */
export const SESSION_LIST_LIMIT = 100;

/**
 * The signed-in user's live sessions, most recently seen first, the request's own marked `current`.
 * Only the row's id identifies a session: its secret is never stored, its hash never leaves the server.
 */
export async function listMySessions(db: Db, actor: UserActor, current: CurrentSession, now = new Date()) {
  const rows = await db.session.findMany({
    where: { userId: actor.userId, expires: { gt: now } },
    orderBy: [{ lastSeenAt: "desc" }, { createdAt: "desc" }],
    take: SESSION_LIST_LIMIT,
    select: { id: true, createdAt: true, lastSeenAt: true, expires: true, userAgent: true, ipAddress: true },
  });
  return { items: rows.map((row) => ({ ...row, current: row.id === current.sessionId })) };
}

/** Signs out one session of the user; NOT_FOUND for any session that is not theirs (or no longer exists). */
export async function revokeMySession(db: Db, actor: UserActor, raw: TSessionIdInput) {
  const { sessionId } = ZSessionIdInput.parse(raw);
  const deleted = await db.session.deleteMany({ where: { id: sessionId, userId: actor.userId } });
  if (deleted.count === 0) throw new AppError("NOT_FOUND", "session_not_found");
  return { sessionId, signedOut: true as const };
}

/** Signs out every session of the user but the request's own. */
export async function revokeOtherSessions(db: Db, actor: UserActor, current: CurrentSession) {
  const deleted = await db.session.deleteMany({
    where: { userId: actor.userId, ...(current.sessionId ? { id: { not: current.sessionId } } : {}) },
  });
  return { signedOut: deleted.count };
}

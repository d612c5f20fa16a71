import type { ServiceContext } from "../context";
import { AppError } from "@/server/core/errors";
import type { UserActor } from "../actor";
import { type CurrentSession, type TSessionIdInput } from "./my-sessions.schema";

/** At most this many sessions are listed (a user rarely has more than a handful). */
export const SESSION_LIST_LIMIT = 100;

/**
 * The signed-in user's live sessions, most recently seen first, the request's own marked `current`.
 * Only the row's id identifies a session: its secret is never stored, its hash never leaves the server.
 */
export async function listMySessions(ctx: ServiceContext<UserActor>, current: CurrentSession) {
  const now = ctx.now();
  const rows = await ctx.db.session.findMany({
    where: { userId: ctx.actor.userId, expires: { gt: now } },
    orderBy: [{ lastSeenAt: "desc" }, { createdAt: "desc" }],
    take: SESSION_LIST_LIMIT,
    select: { id: true, createdAt: true, lastSeenAt: true, expires: true, userAgent: true, ipAddress: true },
  });
  return { items: rows.map((row) => ({ ...row, current: row.id === current.sessionId })) };
}

/** Signs out one session of the user; NOT_FOUND for any session that is not theirs (or no longer exists). */
export async function revokeMySession(ctx: ServiceContext<UserActor>, input: TSessionIdInput) {
  const { sessionId } = input;
  const deleted = await ctx.db.session.deleteMany({ where: { id: sessionId, userId: ctx.actor.userId } });
  if (deleted.count === 0) throw new AppError("NOT_FOUND", "session_not_found");
  return { sessionId, signedOut: true as const };
}

/** Signs out every session of the user but the request's own. */
export async function revokeOtherSessions(ctx: ServiceContext<UserActor>, current: CurrentSession) {
  const deleted = await ctx.db.session.deleteMany({
    where: { userId: ctx.actor.userId, ...(current.sessionId ? { id: { not: current.sessionId } } : {}) },
  });
  return { signedOut: deleted.count };
}

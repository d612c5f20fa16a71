import type { ServiceContext } from "../context";
import { AppError } from "@/server/core/errors";
import type { UserActor } from "../actor";
import { type CurrentSession, type TSessionIdInput } from "./my-sessions.schema";
import { signOutEverywhere } from "./sign-out-everywhere";

/** At most this many sessions of each kind are listed (a user rarely has more than a handful). */
export const SESSION_LIST_LIMIT = 100;

/**
 * The signed-in user's live sessions, most recently active first: browsers (the request's own marked
 * `current`) and command lines signed in with `mesh login` (named by the name the CLI gave, their last
 * use as their last activity; revoked and expired tokens are not listed). Only the row's id identifies
 * a session: no secret or token is stored, no hash of one leaves the server.
 */
export async function listMySessions(ctx: ServiceContext<UserActor>, current: CurrentSession) {
  const now = ctx.now();
  const userId = ctx.actor.userId;
  const [browsers, commandLines] = await Promise.all([
    ctx.db.session.findMany({
      where: { userId, expires: { gt: now } },
      orderBy: [{ lastSeenAt: "desc" }, { createdAt: "desc" }],
      take: SESSION_LIST_LIMIT,
      select: { id: true, createdAt: true, lastSeenAt: true, expires: true, userAgent: true, ipAddress: true },
    }),
    ctx.db.deviceToken.findMany({
      where: { userId, revokedAt: null, expiresAt: { gt: now } },
      orderBy: [{ lastUsedAt: { sort: "desc", nulls: "last" } }, { createdAt: "desc" }],
      take: SESSION_LIST_LIMIT,
      select: { id: true, name: true, createdAt: true, lastUsedAt: true, expiresAt: true },
    }),
  ]);
  const items = [
    ...browsers.map((row) => ({
      ...row,
      kind: "browser" as const,
      name: null,
      current: row.id === current.sessionId,
    })),
    ...commandLines.map((row) => ({
      id: row.id,
      kind: "command_line" as const,
      name: row.name,
      createdAt: row.createdAt,
      lastSeenAt: row.lastUsedAt ?? row.createdAt,
      expires: row.expiresAt,
      userAgent: null,
      ipAddress: null,
      current: false,
    })),
  ].sort((a, b) => b.lastSeenAt.getTime() - a.lastSeenAt.getTime());
  return { items };
}

/**
 * Ends one session of the user: a browser session is signed out, a command line's token revoked (it
 * stops working at once). NOT_FOUND for any session that is not theirs (or no longer live).
 */
export async function revokeMySession(ctx: ServiceContext<UserActor>, input: TSessionIdInput) {
  const { sessionId, kind } = input;
  const userId = ctx.actor.userId;
  // Ids of command-line sessions are UUIDs (the column's type): anything else names none.
  if (kind === "command_line" && !isUuid(sessionId)) throw new AppError("NOT_FOUND", "session_not_found");
  const ended =
    kind === "command_line"
      ? await ctx.db.deviceToken.updateMany({
          where: { id: sessionId, userId, revokedAt: null },
          data: { revokedAt: ctx.now() },
        })
      : await ctx.db.session.deleteMany({ where: { id: sessionId, userId } });
  if (ended.count === 0) throw new AppError("NOT_FOUND", "session_not_found");
  return { sessionId, signedOut: true as const };
}

const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

/** Signs out every session of the user but the request's own: other browsers and every command line. */
export async function revokeOtherSessions(ctx: ServiceContext<UserActor>, current: CurrentSession) {
  const ended = await ctx.db.$transaction((tx) =>
    signOutEverywhere(tx, { userId: ctx.actor.userId, now: ctx.now(), keepSessionId: current.sessionId }),
  );
  return { signedOut: ended.sessions + ended.deviceTokens };
}

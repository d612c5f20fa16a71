import { z } from "zod";
import { signInLimiter } from "@/server/auth/attempt-limit";
import { clientAddress } from "@/server/core/client-address";
import { AppError } from "@/server/core/errors";
import { logger } from "@/server/core/logger";
import { getAccountOverview } from "@/server/services/account/account-overview";
import { changePassword } from "@/server/services/account/change-password";
import { deleteAccount } from "@/server/services/account/delete-account";
import { listMySessions, revokeMySession, revokeOtherSessions } from "@/server/services/account/my-sessions";
import { ZChangePasswordInput } from "@/server/services/account/change-password.schema";
import { ZSessionIdInput } from "@/server/services/account/my-sessions.schema";
import { ZDeleteAccountInput } from "@/server/services/account/delete-account.schema";
import { protectedProcedure } from "../trpc";
import {
  ZAccountDeletedOut,
  ZAccountOut,
  ZOtherSessionsRevokedOut,
  ZPasswordChangedOut,
  ZSessionRevokedOut,
  ZSessionsOut,
} from "../outputs/account";

const rest = (method: "GET" | "POST" | "DELETE", path: `/${string}`, summary: string) => ({
  openapi: { method, path, summary, tags: ["my"], protect: true },
});
const none = z.void();

/**
 * The account settings of the signed-in user (router my; settings page): password, sessions, deletion.
 * Every query is scoped to the session's user; the current session is the one the request carries.
 */
export const accountProcedures = {
  account: protectedProcedure
    .meta(rest("GET", "/my/account", "Password and sign-in providers of my account, and what deleting it removes"))
    .input(none)
    .output(ZAccountOut)
    .query(({ ctx }) => getAccountOverview(ctx.service)),
  changePassword: protectedProcedure
    .meta(rest("POST", "/my/password", "Change my password (the current one required); signs out my other sessions"))
    .input(ZChangePasswordInput)
    .output(ZPasswordChangedOut)
    .mutation(async ({ ctx, input }) => {
      // Guesses at the current password draw from the sign-in limiter's buckets (per e-mail and client).
      if (!(await signInLimiter().attempt(ctx.user.email, clientAddress(ctx.headers))))
        throw new AppError("TOO_MANY_REQUESTS", "rate_limited");
      return changePassword(ctx.service, input, { sessionId: ctx.user.sessionId });
    }),
  sessions: protectedProcedure
    .meta(rest("GET", "/my/sessions", "My signed-in sessions: browsers (the current one marked) and command lines"))
    .input(none)
    .output(ZSessionsOut)
    .query(({ ctx }) => listMySessions(ctx.service, { sessionId: ctx.user.sessionId })),
  revokeSession: protectedProcedure
    .meta(
      rest(
        "DELETE",
        "/my/sessions/{sessionId}",
        "End one of my sessions: a browser, or a command line with kind=command_line",
      ),
    )
    .input(ZSessionIdInput)
    .output(ZSessionRevokedOut)
    .mutation(({ ctx, input }) => revokeMySession(ctx.service, input)),
  revokeOtherSessions: protectedProcedure
    .meta(rest("POST", "/my/sessions/sign-out-others", "Sign out all my sessions but this one, command lines included"))
    .input(none)
    .output(ZOtherSessionsRevokedOut)
    .mutation(({ ctx }) => revokeOtherSessions(ctx.service, { sessionId: ctx.user.sessionId })),
  deleteAccount: protectedProcedure
    .meta(rest("POST", "/my/account/delete", "Delete my account and what it owns (confirmed by its e-mail address)"))
    .input(ZDeleteAccountInput)
    .output(ZAccountDeletedOut)
    .mutation(async ({ ctx, input }) => {
      const result = await deleteAccount(ctx.service, input);
      // The mesh audit logs hold the departures; this line is the operator's record of the deletion itself.
      logger().info(
        {
          event: "account_deleted",
          userId: ctx.actor.userId,
          meshesDeleted: result.meshesDeleted,
          meshesLeft: result.meshesLeft,
        },
        "account deleted",
      );
      return result;
    }),
};

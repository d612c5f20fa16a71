import { z } from "zod";
import { ZDate } from "./common";

// Output schemas of the account settings (my.account, my.sessions, ...): whitelists like outputs.ts.
// A session is named by its row's id only; its secret is never stored and its hash never leaves the server.

export const ZAccountOut = z.object({
  email: z.string(),
  hasPassword: z.boolean(),
  providers: z.array(z.string()),
  deletion: z.object({
    /** False for administrators (ADMIN_EMAILS): see docs/security.md, "Accounts". */
    allowed: z.boolean(),
    removes: z.object({
      meshesOwned: z.number().int(),
      otherMembers: z.number().int(),
      messages: z.number().int(),
      meshesJoined: z.number().int(),
      invites: z.number().int(),
      sessions: z.number().int(),
      cliLogins: z.number().int(),
    }),
    keeps: z.object({ apiKeys: z.number().int() }),
  }),
});
export const ZPasswordChangedOut = z.object({ changed: z.literal(true), signedOutSessions: z.number().int() });
export const ZSessionsOut = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      /** A signed-in browser, or a command line signed in with `mesh login` (its token's row). */
      kind: z.enum(["browser", "command_line"]),
      /** The command line's name (the machine's, given at `mesh login`); null for a browser. */
      name: z.string().nullable(),
      /** Sign-in (browser) or login (command line). */
      createdAt: ZDate,
      /** Last request (browser) or last use of the token (command line). */
      lastSeenAt: ZDate,
      expires: ZDate,
      userAgent: z.string().nullable(),
      ipAddress: z.string().nullable(),
      current: z.boolean(),
    }),
  ),
});
export const ZSessionRevokedOut = z.object({ sessionId: z.string(), signedOut: z.literal(true) });
export const ZOtherSessionsRevokedOut = z.object({ signedOut: z.number().int() });
export const ZAccountDeletedOut = z.object({
  deleted: z.literal(true),
  meshesDeleted: z.number().int(),
  meshesLeft: z.number().int(),
  invitesDeleted: z.number().int(),
});

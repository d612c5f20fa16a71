import { z } from "zod";

/** The two kinds of session: a signed-in browser, and a command line signed in with `mesh login`. */
export const SESSION_KINDS = ["browser", "command_line"] as const;
export type SessionKind = (typeof SESSION_KINDS)[number];

/**
 * One of the user's sessions, by the row's id (its public handle; never the cookie's secret nor the
 * command line's token) and its kind (a browser session when not given).
 */
export const ZSessionIdInput = z.object({
  sessionId: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, { error: "invalid_session_id" }),
  kind: z.enum(SESSION_KINDS).default("browser"),
});

export type TSessionIdInput = z.output<typeof ZSessionIdInput>;

/** The request's own session (the session list marks it; "sign out of other sessions" keeps it). */
export interface CurrentSession {
  /** The session row's id; absent for callers without a browser session (tests, server-side jobs). */
  sessionId?: string;
}

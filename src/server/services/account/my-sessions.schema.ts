import { z } from "zod";

/** One of the user's sessions, by the row's id (its public handle; never the cookie's secret). */
export const ZSessionIdInput = z.object({
  sessionId: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, { error: "invalid_session_id" }),
});

export type TSessionIdInput = z.output<typeof ZSessionIdInput>;

/** The request's own session (the session list marks it; "sign out of other sessions" keeps it). */
export interface CurrentSession {
  /** The session row's id; absent for callers without a browser session (tests, server-side jobs). */
  sessionId?: string;
}

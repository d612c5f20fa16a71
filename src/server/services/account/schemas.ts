import { z } from "zod";
import { ZSignUpInput } from "../users/schemas";

// Inputs of the account settings (settings page, "Password", "Sessions", "Delete account"). Error
// messages are keys of the page's messages (account.errors.*).

const ZPassword = z.string().max(200, { error: "password_too_long" });

/** A password change: the current password, the new one (sign-up's rules) and the new one again. */
export const ZChangePasswordInput = z
  .object({
    currentPassword: ZPassword.min(1, { error: "current_password_required" }),
    newPassword: ZSignUpInput.shape.password,
    confirmPassword: ZPassword,
  })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ["confirmPassword"], error: "passwords_differ" })
  .refine((v) => v.newPassword !== v.currentPassword, { path: ["newPassword"], error: "password_unchanged" });
export type TChangePasswordInput = z.output<typeof ZChangePasswordInput>;

/** One of the user's sessions, by the row's id (its public handle; never the cookie's secret). */
export const ZSessionIdInput = z.object({
  sessionId: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, { error: "invalid_session_id" }),
});
export type TSessionIdInput = z.output<typeof ZSessionIdInput>;

/** Account deletion, confirmed by typing the account's e-mail address. */
export const ZDeleteAccountInput = z.object({
  confirmEmail: z
    .string()
    .trim()
    .min(1, { error: "confirmation_mismatch" })
    .max(254, { error: "confirmation_mismatch" }),
});
export type TDeleteAccountInput = z.output<typeof ZDeleteAccountInput>;

/** The request's own session (the session list marks it; "sign out of other sessions" keeps it). */
export interface CurrentSession {
  /** The session row's id; absent for callers without a browser session (tests, server-side jobs). */
  sessionId?: string;
}

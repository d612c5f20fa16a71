import { z } from "zod";

/** E-mail as typed by a person: trimmed and lower-cased before use. */
export const ZEmail = z
  .email({ error: "invalid_email" })
  .max(254)
  .transform((v) => v.trim().toLowerCase());

export const ZSignUpInput = z.object({
  name: z.string().trim().min(1, { error: "name_required" }).max(80, { error: "name_too_long" }),
  email: z.string().trim().pipe(ZEmail),
  password: z.string().min(10, { error: "password_too_short" }).max(200, { error: "password_too_long" }),
});
export type TSignUpInput = z.input<typeof ZSignUpInput>;

export const ZSignInInput = z.object({
  email: z.string().trim().pipe(ZEmail),
  password: z.string().min(1).max(200),
});
export type TSignInInput = z.output<typeof ZSignInInput>;

export const ZUpdateProfileInput = z.object({
  name: z.string().trim().min(1, { error: "name_required" }).max(80, { error: "name_too_long" }),
});
export type TUpdateProfileInput = z.output<typeof ZUpdateProfileInput>;

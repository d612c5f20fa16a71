import { z } from "zod";
import { LOCALES } from "@/i18n/routing";
import { ZEmail } from "../users/schemas";
import { ZSignUpInput } from "../users/register-user.schema";
import { ZPassword } from "./schemas";
import { ZEmailToken } from "./email-verification-tokens";

export const ZMailLocale = z.enum(LOCALES).catch("en");

/** "Forgot password?": the address to send the link to, and the language of the mail. */
export const ZRequestPasswordResetInput = z.object({
  email: z.string().trim().pipe(ZEmail),
  locale: ZMailLocale,
});
export type TRequestPasswordResetInput = z.input<typeof ZRequestPasswordResetInput>;

/** The reset page: the link's token and the new password (sign-up's rules), twice. */
export const ZResetPasswordInput = z
  .object({
    token: ZEmailToken,
    newPassword: ZSignUpInput.shape.password,
    confirmPassword: ZPassword,
  })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ["confirmPassword"], error: "passwords_differ" });
export type TResetPasswordInput = z.input<typeof ZResetPasswordInput>;

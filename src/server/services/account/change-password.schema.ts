import { z } from "zod";
import { ZPassword } from "./schemas";
import { ZSignUpInput } from "../users/register-user.schema";

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

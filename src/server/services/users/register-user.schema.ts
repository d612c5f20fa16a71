import { z } from "zod";
import { ZEmail } from "./schemas";

export const ZSignUpInput = z.object({
  name: z.string().trim().min(1, { error: "name_required" }).max(80, { error: "name_too_long" }),
  email: z.string().trim().pipe(ZEmail),
  password: z.string().min(10, { error: "password_too_short" }).max(200, { error: "password_too_long" }),
});

export type TSignUpInput = z.input<typeof ZSignUpInput>;

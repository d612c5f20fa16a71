import { z } from "zod";
import { ZEmail } from "./schemas";

export const ZSignInInput = z.object({
  email: z.string().trim().pipe(ZEmail),
  password: z.string().min(1).max(200),
});

export type TSignInInput = z.output<typeof ZSignInInput>;

import { z } from "zod";

/** Account deletion, confirmed by typing the account's e-mail address. */
export const ZDeleteAccountInput = z.object({
  confirmEmail: z
    .string()
    .trim()
    .min(1, { error: "confirmation_mismatch" })
    .max(254, { error: "confirmation_mismatch" }),
});

export type TDeleteAccountInput = z.output<typeof ZDeleteAccountInput>;

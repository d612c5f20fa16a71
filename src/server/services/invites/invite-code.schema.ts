import { z } from "zod";

/** Input of a code lookup: any text up to 64 characters (a longer one is refused as input). */
export const ZResolveInviteCodeInput = z.object({ code: z.string().max(64) });

export type TResolveInviteCodeInput = z.output<typeof ZResolveInviteCodeInput>;

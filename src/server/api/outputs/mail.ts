import { z } from "zod";

/** A mail accepted for sending (it goes out in the background). */
export const ZMailSentOut = z.object({ sent: z.literal(true) });
/** The account's address and whether it is confirmed (the dashboard's banner). */
export const ZEmailStatusOut = z.object({ email: z.string().nullable(), verified: z.boolean() });

import { z } from "zod";
import { ZEmailToken } from "./email-verification-tokens";
import { ZMailLocale } from "./password-reset.schema";

/** "Resend the link": the language of the mail. */
export const ZResendVerificationInput = z.object({ locale: ZMailLocale });
export type TResendVerificationInput = z.input<typeof ZResendVerificationInput>;

/** The verification page's button: the link's token. */
export const ZEmailTokenInput = z.object({ token: ZEmailToken });
export type TEmailTokenInput = z.input<typeof ZEmailTokenInput>;

import { z } from "zod";
import { ZEmail } from "../users/schemas";
import { ZMailLocale } from "./password-reset.schema";

/** Settings, "E-mail address": the new address; the change applies when its confirmation link is followed. */
export const ZRequestEmailChangeInput = z.object({
  newEmail: z.string().trim().pipe(ZEmail),
  locale: ZMailLocale,
});
export type TRequestEmailChangeInput = z.input<typeof ZRequestEmailChangeInput>;

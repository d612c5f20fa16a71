import { z } from "zod";
import { LOCALES } from "@/i18n/routing";
import { ZEmail } from "../users/schemas";

/** The invite page's "send by e-mail": one invite, one address, the sender's language. */
export const ZInviteByEmailInput = z.object({
  inviteId: z.uuid(),
  email: z.string().trim().pipe(ZEmail),
  locale: z.enum(LOCALES).catch("en"),
});
export type TInviteByEmailInput = z.input<typeof ZInviteByEmailInput>;

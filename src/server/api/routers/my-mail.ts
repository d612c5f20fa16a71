import { z } from "zod";
import { requestEmailChange } from "@/server/services/account/change-email";
import { ZRequestEmailChangeInput } from "@/server/services/account/change-email.schema";
import { emailVerificationState, resendEmailVerification } from "@/server/services/account/email-verification";
import { ZResendVerificationInput } from "@/server/services/account/email-verification.schema";
import { sendInviteByEmail } from "@/server/services/invites/invite-by-email";
import { ZInviteByEmailInput } from "@/server/services/invites/invite-by-email.schema";
import { protectedProcedure } from "../trpc";
import { ZEmailStatusOut, ZMailSentOut } from "../outputs/mail";

const rest = (method: "GET" | "POST", path: `/${string}`, summary: string) => ({
  openapi: { method, path, summary, tags: ["my"], protect: true },
});

/**
 * The signed-in user's mail (router my): the address's confirmation, its change, and invites by e-mail.
 * Each is limited (src/server/mail/limits.ts) and sends in the background.
 */
export const mailProcedures = {
  emailStatus: protectedProcedure
    .meta(rest("GET", "/my/email", "My e-mail address and whether it is confirmed"))
    .input(z.void())
    .output(ZEmailStatusOut)
    .query(({ ctx }) => emailVerificationState(ctx.service)),
  resendVerification: protectedProcedure
    .meta(rest("POST", "/my/email/verification", "Send the confirmation link of my address again"))
    .input(ZResendVerificationInput)
    .output(ZMailSentOut)
    .mutation(({ ctx, input }) => resendEmailVerification(ctx.service, input)),
  requestEmailChange: protectedProcedure
    .meta(rest("POST", "/my/email/change", "Change my address: a confirmation link goes to the new one"))
    .input(ZRequestEmailChangeInput)
    .output(ZMailSentOut)
    .mutation(({ ctx, input }) => requestEmailChange(ctx.service, input)),
  sendInviteByEmail: protectedProcedure
    .meta(rest("POST", "/my/invites/{inviteId}/email", "Mail an invite's link to an address"))
    .input(ZInviteByEmailInput)
    .output(ZMailSentOut)
    .mutation(({ ctx, input }) => sendInviteByEmail(ctx.service, input)),
};

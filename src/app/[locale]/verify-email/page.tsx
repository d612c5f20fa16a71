import { TokenConfirmForm } from "@/components/mail/forms";
import { TokenLinkPage, type TokenLinkPageProps } from "@/components/mail/token-link-page";
import { titleFrom } from "@/i18n/metadata";
import { verifyEmailAction } from "@/server/auth/mail-actions";

export const generateMetadata = titleFrom("email", "verifyTitle");

/** The verification link's page: one button confirms the address (a mail scanner opening the link confirms nothing). */
export default function VerifyEmailPage(props: TokenLinkPageProps) {
  return (
    <TokenLinkPage
      props={props}
      page="verify"
      form={(token) => (
        <TokenConfirmForm action={verifyEmailAction} token={token} submit="verifySubmit" done="verifyDone" />
      )}
    />
  );
}

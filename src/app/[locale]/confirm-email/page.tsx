import { TokenConfirmForm } from "@/components/mail/forms";
import { TokenLinkPage, type TokenLinkPageProps } from "@/components/mail/token-link-page";
import { titleFrom } from "@/i18n/metadata";
import { confirmEmailChangeAction } from "@/server/auth/mail-actions";

export const generateMetadata = titleFrom("email", "confirmTitle");

/** The address change's link: one button makes the new address the account's (the old one is told). */
export default function ConfirmEmailPage(props: TokenLinkPageProps) {
  return (
    <TokenLinkPage
      props={props}
      page="confirm"
      form={(token) => (
        <TokenConfirmForm action={confirmEmailChangeAction} token={token} submit="confirmSubmit" done="confirmDone" />
      )}
    />
  );
}

import { getTranslations } from "next-intl/server";
import { ResetPasswordForm } from "@/components/mail/forms";
import { TokenLinkPage, type TokenLinkPageProps } from "@/components/mail/token-link-page";
import { titleFrom } from "@/i18n/metadata";
import { Link } from "@/i18n/navigation";
import { resetPasswordAction } from "@/server/auth/mail-actions";

export const generateMetadata = titleFrom("email", "resetTitle");

/** The reset link's page: a new password; the token is checked (and used) only when it is submitted. */
export default async function ResetPasswordPage(props: TokenLinkPageProps) {
  const t = await getTranslations("email");
  return (
    <TokenLinkPage
      props={props}
      page="reset"
      form={(token) => <ResetPasswordForm action={resetPasswordAction} token={token} />}
      missing={<Link href="/forgot-password">{t("requestNewLink")}</Link>}
    />
  );
}

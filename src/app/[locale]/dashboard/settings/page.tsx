import { getTranslations, setRequestLocale } from "next-intl/server";
import { DeleteAccount } from "@/components/settings/delete-account";
import { ChangeEmailForm } from "@/components/mail/account-email";
import { ExportButton } from "@/components/settings/export-button";
import { PasswordForm } from "@/components/settings/password-form";
import { ProfileForm } from "@/components/settings/profile-form";
import { SessionsCard } from "@/components/settings/sessions-card";
import { titleFrom } from "@/i18n/metadata";
import { Link } from "@/i18n/navigation";
import { enabledOAuthProviders } from "@/server/auth/providers";
import { getSessionUser } from "@/server/auth/session-user";
import { DEVICE_TOKEN_IDLE_MS, DEVICE_TOKEN_MAX_AGE_MS } from "@/server/services/devices/device-login";
import { serverCaller } from "@/trpc/server";

const DAY_MS = 24 * 60 * 60_000;

export const generateMetadata = titleFrom("settings", "title");

export default async function SettingsPage({ params }: { params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("settings");
  const ta = await getTranslations("account");
  const te = await getTranslations("email");
  // Signed out (a session ended elsewhere): the dashboard layout, rendered beside this page, sends the
  // visitor to sign-in; the page asks the API nothing, so no UNAUTHORIZED is thrown and logged.
  if (!(await getSessionUser())) return null;
  const caller = await serverCaller();
  const [profile, account] = await Promise.all([caller.my.profile(), caller.my.account()]);
  const providerNames = new Map(enabledOAuthProviders().map((p) => [p.id, p.name]));
  const providers = account.providers.map((id) => providerNames.get(id) ?? id).join(", ");
  return (
    <section className="stack narrow">
      <h1>{t("title")}</h1>
      <div className="card stack-sm">
        <h2>{t("profileTitle")}</h2>
        <ProfileForm name={profile.name ?? ""} />
      </div>
      <div className="card stack-sm" id="email">
        <h2>{te("changeTitle")}</h2>
        {account.hasPassword ? (
          <>
            <p className="muted">{te("changeLead", { email: account.email })}</p>
            <ChangeEmailForm />
          </>
        ) : (
          <p>{te("changeOAuth")}</p>
        )}
      </div>
      <div className="card stack-sm">
        <h2>{ta("passwordTitle")}</h2>
        {account.hasPassword ? (
          <>
            <p className="muted">{ta("passwordLead")}</p>
            <PasswordForm />
          </>
        ) : (
          // OAuth-only accounts: no password to change, and none is set here (docs/security.md, "Accounts").
          <p>{ta("noPassword", { providers: providers || ta("aProvider") })}</p>
        )}
      </div>
      <div className="card stack-sm">
        <h2>{ta("sessionsTitle")}</h2>
        <p className="muted">
          {ta("sessionsLead", { idleDays: DEVICE_TOKEN_IDLE_MS / DAY_MS, maxDays: DEVICE_TOKEN_MAX_AGE_MS / DAY_MS })}
        </p>
        <SessionsCard />
      </div>
      <div className="card stack-sm" id="your-data">
        <h2>{t("exportTitle")}</h2>
        <p>{t("exportBody")}</p>
        <ExportButton />
      </div>
      <div className="card stack-sm">
        <h2>{ta("developersTitle")}</h2>
        <p>{ta("developersBody")}</p>
        <ul className="list">
          <li>
            <Link href="/api-reference">{ta("apiReferenceLink")}</Link>
          </li>
          <li>
            <a href="/api/openapi.json">{ta("openapiLink")}</a>
          </li>
        </ul>
      </div>
      <div className="card stack-sm danger-zone">
        <h2>{ta("deleteTitle")}</h2>
        <DeleteAccount
          email={account.email}
          allowed={account.deletion.allowed}
          removes={account.deletion.removes}
          keeps={account.deletion.keeps}
        />
      </div>
    </section>
  );
}

import { getTranslations, setRequestLocale } from "next-intl/server";
import { DeviceApproval } from "@/components/device-approval";
import { OAuthButtons } from "@/components/oauth-buttons";
import { titleFrom } from "@/i18n/metadata";
import { redirect } from "@/i18n/navigation";
import { getSessionUser } from "@/server/auth/session-user";
import { DEVICE_APPROVAL_RECENT_SIGN_IN_MS } from "@/server/services/devices/device-login";

export const generateMetadata = titleFrom("device", "title");

// Where `mesh login` sends the person (docs/cli.md): confirm the code the terminal shows, signed in.
export default async function DevicePage({
  params,
  searchParams,
}: {
  params: Promise<{ locale: string }>;
  searchParams: Promise<{ code?: string }>;
}) {
  const { locale } = await params;
  setRequestLocale(locale);
  const code = typeof (await searchParams).code === "string" ? (await searchParams).code!.slice(0, 40) : "";
  const back = `/${locale}/device${code ? `?code=${encodeURIComponent(code)}` : ""}`;
  if (!(await getSessionUser())) {
    redirect({ href: { pathname: "/sign-in", query: { callbackUrl: back } }, locale });
  }
  const t = await getTranslations("device");
  return (
    <section className="stack narrow">
      <h1>{t("title")}</h1>
      <p className="lead">{t("lead")}</p>
      {/* Accounts without a password approve only after a fresh sign-in with their provider. */}
      <DeviceApproval
        initialCode={code}
        recentMinutes={DEVICE_APPROVAL_RECENT_SIGN_IN_MS / 60_000}
        signInAgain={<OAuthButtons callbackUrl={back} />}
      />
    </section>
  );
}

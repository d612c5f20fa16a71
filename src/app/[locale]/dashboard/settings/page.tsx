import { getTranslations, setRequestLocale } from "next-intl/server";
import { ExportButton } from "@/components/settings/export-button";
import { ProfileForm } from "@/components/settings/profile-form";
import { titleFrom } from "@/i18n/metadata";
import { serverCaller } from "@/trpc/server";

export const generateMetadata = titleFrom("settings", "title");

export default async function SettingsPage({ params }: { params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("settings");
  const profile = await (await serverCaller()).my.profile();
  return (
    <section className="stack narrow">
      <h1>{t("title")}</h1>
      <div className="card stack-sm">
        <h2>{t("profileTitle")}</h2>
        <ProfileForm name={profile.name ?? ""} />
      </div>
      <div className="card stack-sm">
        <h2>{t("exportTitle")}</h2>
        <p>{t("exportBody")}</p>
        <ExportButton />
      </div>
    </section>
  );
}

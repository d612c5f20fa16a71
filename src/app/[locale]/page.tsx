import { getTranslations, setRequestLocale } from "next-intl/server";
import { EngineOverview } from "@/components/home/engine-overview";
import { HomeHero } from "@/components/home/home-hero";
import { HowItWorks } from "@/components/home/how-it-works";
import { HOME_MESHES_SHOWN } from "@/components/home/home-config";
import { MeshOverview } from "@/components/home/mesh-overview";
import "@/components/home/home.css";
import { getSessionUser } from "@/server/auth/session-user";
import { serverCaller } from "@/trpc/server";

/**
 * The home page. Visitors: what the product does, sign up or sign in, and how it works. Signed-in
 * users: a live overview of their meshes, and for administrators the review engine's newest jobs and
 * reports (asked for only for administrators; the procedure refuses everybody else).
 */
export default async function HomePage({
  params,
  searchParams,
}: {
  params: Promise<{ locale: string }>;
  searchParams: Promise<{ notice?: string }>;
}) {
  const { locale } = await params;
  setRequestLocale(locale);
  // After an account deletion (settings page): the notice, on a page the signed-out visitor can see.
  const deleted = (await searchParams).notice === "account-deleted";
  const ta = await getTranslations("account");
  const user = await getSessionUser();
  if (!user) {
    return (
      <div className="stack">
        {deleted ? (
          <p className="notice" role="status">
            {ta("deletedNotice")}
          </p>
        ) : null}
        <HomeHero />
        <HowItWorks />
      </div>
    );
  }
  const t = await getTranslations("home.overview");
  const caller = await serverCaller();
  const [meshes, engine] = await Promise.all([
    caller.my.homeMeshes({ limit: HOME_MESHES_SHOWN }),
    user.isAdmin ? caller.admin.homeEngine() : null,
  ]);
  return (
    <div className="stack">
      <div className="stack-sm">
        <h1>{t("title")}</h1>
        <p className="lead">{user.isAdmin ? t("leadAdmin") : t("lead")}</p>
      </div>
      <MeshOverview initial={meshes} />
      {engine ? <EngineOverview initial={engine} /> : null}
      <HowItWorks />
    </div>
  );
}

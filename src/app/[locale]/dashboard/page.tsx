import { getTranslations, setRequestLocale } from "next-intl/server";
import { MeshList } from "@/components/meshes/mesh-list";
import { titleFrom } from "@/i18n/metadata";
import { Link } from "@/i18n/navigation";
import { serverCaller } from "@/trpc/server";

export const generateMetadata = titleFrom("dashboard", "title");

export default async function DashboardPage({
  params,
  searchParams,
}: {
  params: Promise<{ locale: string }>;
  searchParams: Promise<{ page?: string }>;
}) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("dashboard");
  const tm = await getTranslations("meshes");
  const page = Math.max(1, Math.min(100_000, Number.parseInt((await searchParams).page ?? "1", 10) || 1));
  const caller = await serverCaller();
  const [profile, meshes] = await Promise.all([caller.my.profile(), caller.my.meshes({ page, pageSize: 12 })]);
  return (
    <section className="stack">
      <h1>{t("greeting", { name: profile.name ?? profile.email ?? "" })}</h1>
      <p className="muted">
        {t("signedInAs", { email: profile.email ?? "" })}{" "}
        {profile.isAdmin ? <span className="badge tone-info">{t("adminBadge")}</span> : null}
      </p>
      <div className="row-between">
        <h2>{tm("title")}</h2>
        {meshes.total > 0 ? (
          <Link className="button" href="/dashboard/meshes/new">
            {tm("create")}
          </Link>
        ) : null}
      </div>
      <MeshList data={meshes} />
    </section>
  );
}

import { getFormatter, getTranslations, setRequestLocale } from "next-intl/server";
import { StatusBadge } from "@/components/pipelines/status-badge";
import { titleFrom } from "@/i18n/metadata";
import { Link } from "@/i18n/navigation";
import { requireAdmin } from "@/trpc/admin";
import { serverCaller } from "@/trpc/server";
import { EmptyState } from "@/components/ui/states";

export const generateMetadata = titleFrom("pipelines", "title");

export default async function PipelinesPage({ params }: { params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  await requireAdmin(locale, "/pipelines");
  const t = await getTranslations("pipelines");
  const ts = await getTranslations("pipelines.stages");
  const format = await getFormatter();
  const { items } = await (await serverCaller()).pipelines.list();
  return (
    <section className="stack">
      <h1>{t("title")}</h1>
      <p className="muted">{t("lead")}</p>
      {items.length === 0 ? (
        <EmptyState title={t("empty")} />
      ) : (
        <ul className="cards" aria-label={t("title")}>
          {items.map((p) => (
            <li key={p.id} className="card stack-sm" data-pipeline-id={p.id}>
              <h2>
                <Link href={`/pipelines/${p.id}`}>{t.has(`names.${p.id}`) ? t(`names.${p.id}`) : p.name}</Link>
              </h2>
              <p className="muted small">{t("version", { version: p.version })}</p>
              <p>{t.has(`descriptions.${p.id}`) ? t(`descriptions.${p.id}`) : p.description}</p>
              <p className="small">{p.stages.map((s) => (ts.has(s.id) ? ts(s.id) : s.name)).join(" → ")}</p>
              <p className="small">
                {p.latest_execution ? (
                  <>
                    {t("latest")} <StatusBadge status={p.latest_execution.status} />{" "}
                    {format.dateTime(p.latest_execution.queued_at, { dateStyle: "medium", timeStyle: "short" })}
                  </>
                ) : (
                  t("neverRun")
                )}
              </p>
              <p className="row">
                <Link className="button small" href={`/pipelines/${p.id}`}>
                  {t("tabs.dashboard")}
                </Link>
                <Link className="button small secondary" href={`/pipelines/${p.id}/execute`}>
                  {t("tabs.execute")}
                </Link>
                <Link href={`/pipelines/${p.id}/executions`}>{t("tabs.executions")}</Link>
                <Link href={`/pipelines/${p.id}/report`}>{t("tabs.report")}</Link>
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

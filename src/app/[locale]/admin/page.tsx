import { getTranslations, setRequestLocale } from "next-intl/server";
import { getFormats } from "@/i18n/get-formats";
import { SummaryCharts, type ChartSpec } from "@/components/admin/summary-charts";
import { titleFrom } from "@/i18n/metadata";
import { AUDIT_TYPES } from "@/server/services/audit/audit-types";
import { adminCaller } from "@/trpc/admin";
import { EmptyState } from "@/components/ui/states";

export const generateMetadata = titleFrom("admin", "title");

const DAY_MS = 86_400_000;

/** Audit events of the last 24 hours per type (each list's total, read with a one-row page). */
async function eventsLastDay(caller: Awaited<ReturnType<typeof adminCaller>>) {
  const from = new Date(Date.now() - DAY_MS);
  return Promise.all(
    AUDIT_TYPES.map((eventType) => caller.admin.audit({ eventType, from, pageSize: 1 }).then((p) => p.total)),
  );
}

export default async function AdminSummaryPage({ params }: { params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("admin");
  const formats = await getFormats();
  const caller = await adminCaller(locale);
  const [summary, perType] = await Promise.all([caller.admin.summary(), eventsLastDay(caller)]);
  const cards = [
    ["meshes", summary.meshes],
    ["activeMeshes", summary.activeMeshes],
    ["archivedMeshes", summary.meshes - summary.activeMeshes],
    ["totalPresences", summary.totalPresences],
    ["activePresences", summary.activePresences],
    ["messages24h", summary.messages24h],
  ] as const;
  const chart = (title: string, data: { label: string; value: number }[], horizontal = false): ChartSpec => ({
    title,
    horizontal,
    data,
    text: data.map((d) => t("summary.chartText", { label: d.label, value: d.value })).join("; "),
  });
  const events = AUDIT_TYPES.map((type, i) => ({ label: t(`eventTypes.${type}`), value: perType[i] ?? 0 })).filter(
    (d) => d.value > 0,
  );
  return (
    <section className="stack" aria-labelledby="admin-title">
      <h1 id="admin-title">{t("summary.title")}</h1>
      <p className="lead">{t("summary.lead")}</p>
      <ul className="stat-cards">
        {cards.map(([key, value]) => (
          <li key={key} className="card stat">
            <span className="stat-value">{formats.number(value)}</span>
            <span className="muted">{t(`summary.${key}`)}</span>
          </li>
        ))}
      </ul>
      <SummaryCharts
        logNote={t("summary.logScale")}
        valueLabel={t("summary.count")}
        charts={[
          chart(t("summary.meshesChart"), [
            { label: t("summary.active"), value: summary.activeMeshes },
            { label: t("summary.archived"), value: summary.meshes - summary.activeMeshes },
          ]),
          chart(t("summary.sessionsChart"), [
            { label: t("summary.connected"), value: summary.activePresences },
            { label: t("summary.disconnected"), value: summary.totalPresences - summary.activePresences },
          ]),
        ]}
      />
      {events.length > 0 ? (
        <SummaryCharts
          valueLabel={t("summary.count")}
          logNote={t("summary.logScale")}
          charts={[chart(t("summary.eventsChart"), events, true)]}
        />
      ) : (
        <EmptyState title={t("summary.noEvents")} />
      )}
    </section>
  );
}

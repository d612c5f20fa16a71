import { getTranslations, setRequestLocale } from "next-intl/server";
import { sortState } from "@/components/admin/sorting";
import { TableView } from "@/components/admin/table-view";
import { LocalTime } from "@/components/local-time";
import { titleFrom } from "@/i18n/metadata";
import { Link } from "@/i18n/navigation";
import { adminViews, type RawParams } from "@/server/services/admin/view-params";
import { adminCaller } from "@/trpc/admin";

export const generateMetadata = titleFrom("admin.sessions", "title");

export default async function AdminSessionsPage({
  params,
  searchParams,
}: {
  params: Promise<{ locale: string }>;
  searchParams: Promise<RawParams>;
}) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("admin");
  const tm = await getTranslations("meshes");
  const view = adminViews.sessions(await searchParams);
  const data = await (await adminCaller(locale)).admin.sessions(view.input);
  const sort = (key: string) => sortState("/admin/sessions", view.params, view.input, key);
  return (
    <TableView
      table="sessions"
      title={t("sessions.title")}
      params={view.params}
      data={data}
      fields={[
        { name: "q", label: t("table.search"), kind: "search", hint: t("sessions.searchHint") },
        {
          name: "status",
          label: t("sessions.status"),
          kind: "select",
          options: [
            { value: "", label: t("table.any") },
            { value: "active", label: t("sessions.active") },
            { value: "disconnected", label: t("sessions.disconnected") },
          ],
        },
      ]}
      columns={[
        { label: t("sessions.col.member") },
        { label: t("sessions.col.mesh") },
        { label: t("sessions.col.connection") },
        { label: t("sessions.col.status") },
        { label: t("sessions.col.node") },
        { label: t("sessions.col.connected"), sort: sort("connectedAt") },
        { label: t("sessions.col.lastSeen") },
        { label: t("sessions.col.disconnected"), sort: sort("disconnectedAt") },
      ]}
      rows={data.items.map((s) => ({
        key: s.id,
        cells: [
          `${s.member.displayName} (${tm(`roles.${s.member.role}`)})`,
          <Link key="m" href={`/admin/meshes/${s.mesh.id}`}>
            {s.mesh.slug}
          </Link>,
          s.disconnectedAt ? t("sessions.disconnected") : t("sessions.active"),
          s.statusText ? `${s.status}: ${s.statusText}` : s.status,
          s.nodeId,
          <LocalTime key="c" iso={s.connectedAt.toISOString()} />,
          <LocalTime key="l" iso={s.lastSeenAt.toISOString()} />,
          s.disconnectedAt ? <LocalTime key="d" iso={s.disconnectedAt.toISOString()} /> : "",
        ],
      }))}
    />
  );
}

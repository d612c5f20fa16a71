import { getTranslations, setRequestLocale } from "next-intl/server";
import { sortState } from "@/components/admin/sorting";
import { auditSentence, type Tr } from "@/components/audit-sentence";
import { TableView } from "@/components/admin/table-view";
import { LocalTime } from "@/components/local-time";
import { titleFrom } from "@/i18n/metadata";
import { Link } from "@/i18n/navigation";
import { AUDIT_TYPES } from "@/server/services/audit/audit-types";
import { adminViews, type RawParams } from "@/server/services/admin/view-params";
import { adminCaller } from "@/trpc/admin";

export const generateMetadata = titleFrom("admin.audit", "title");

export default async function AdminAuditPage({
  params,
  searchParams,
}: {
  params: Promise<{ locale: string }>;
  searchParams: Promise<RawParams>;
}) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("admin");
  const live = (await getTranslations("live")) as unknown as Tr;
  const meshes = (await getTranslations("meshes")) as unknown as Tr;
  const view = adminViews.audit(await searchParams);
  const data = await (await adminCaller(locale)).admin.audit(view.input);
  return (
    <TableView
      table="audit"
      title={t("audit.title")}
      params={view.params}
      data={data}
      fields={[
        { name: "q", label: t("table.search"), kind: "search", hint: t("audit.searchHint") },
        {
          name: "eventType",
          label: t("audit.eventType"),
          kind: "select",
          options: [
            { value: "", label: t("table.any") },
            ...AUDIT_TYPES.map((v) => ({ value: v, label: t(`eventTypes.${v}`) })),
          ],
        },
        { name: "meshId", label: t("audit.meshId"), kind: "text", hint: t("audit.meshIdHint") },
        { name: "from", label: t("audit.from"), kind: "date" },
        { name: "to", label: t("audit.to"), kind: "date" },
      ]}
      columns={[
        {
          label: t("audit.col.date"),
          sort: sortState("/admin/audit", view.params, { dir: view.input.dir }, "createdAt", { param: false }),
        },
        { label: t("audit.col.type") },
        { label: t("audit.col.mesh") },
        { label: t("audit.col.actor") },
        { label: t("audit.col.what") },
      ]}
      rows={data.items.map((a) => ({
        key: a.id,
        cells: [
          <LocalTime key="d" iso={a.createdAt.toISOString()} />,
          t(`eventTypes.${a.eventType}`),
          <Link key="m" href={`/admin/meshes/${a.mesh.id}`}>
            {a.mesh.slug}
          </Link>,
          a.actorName ?? t("audit.actorSystem"),
          auditSentence(live, meshes, a),
        ],
      }))}
    />
  );
}

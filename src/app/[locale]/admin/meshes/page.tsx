import { getTranslations, setRequestLocale } from "next-intl/server";
import { sortState } from "@/components/admin/sorting";
import { TableView } from "@/components/admin/table-view";
import { LocalTime } from "@/components/local-time";
import { titleFrom } from "@/i18n/metadata";
import { Link } from "@/i18n/navigation";
import { adminViews, type RawParams } from "@/server/services/admin/view-params";
import { MESH_TIERS, MESH_TRANSPORTS, MESH_VISIBILITIES } from "@/server/services/meshes/schemas";
import { adminCaller } from "@/trpc/admin";

export const generateMetadata = titleFrom("admin.meshes", "title");

export default async function AdminMeshesPage({
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
  const view = adminViews.meshes(await searchParams);
  const data = await (await adminCaller(locale)).admin.meshes(view.input);
  const base = "/admin/meshes";
  const sort = (key: string, firstDir?: "asc" | "desc") => sortState(base, view.params, view.input, key, { firstDir });
  const any = { value: "", label: t("table.any") };
  return (
    <TableView
      table="meshes"
      title={t("meshes.title")}
      params={view.params}
      data={data}
      fields={[
        { name: "q", label: t("table.search"), kind: "search", hint: t("meshes.searchHint") },
        {
          name: "visibility",
          label: t("meshes.visibility"),
          kind: "select",
          options: [any, ...MESH_VISIBILITIES.map((v) => ({ value: v, label: tm(`visibility.${v}`) }))],
        },
        {
          name: "transport",
          label: t("meshes.transport"),
          kind: "select",
          options: [any, ...MESH_TRANSPORTS.map((v) => ({ value: v, label: tm(`transport.${v}`) }))],
        },
        {
          name: "tier",
          label: t("meshes.tier"),
          kind: "select",
          options: [any, ...MESH_TIERS.map((v) => ({ value: v, label: tm(`tier.${v}`) }))],
        },
        {
          name: "archived",
          label: t("meshes.archived"),
          kind: "select",
          options: [
            any,
            { value: "no", label: t("meshes.archivedNo") },
            { value: "yes", label: t("meshes.archivedYes") },
          ],
        },
      ]}
      columns={[
        { label: t("meshes.col.name"), sort: sort("name", "asc") },
        { label: t("meshes.col.slug"), sort: sort("slug", "asc") },
        { label: t("meshes.col.owner") },
        { label: t("meshes.col.visibility") },
        { label: t("meshes.col.transport") },
        { label: t("meshes.col.tier") },
        { label: t("meshes.col.members"), numeric: true },
        { label: t("meshes.col.state") },
        { label: t("meshes.col.created"), sort: sort("createdAt") },
      ]}
      rows={data.items.map((m) => ({
        key: m.id,
        cells: [
          <Link key="n" href={`/admin/meshes/${m.id}`}>
            {m.name}
          </Link>,
          m.slug,
          m.owner.name ?? m.owner.email ?? "",
          tm(`visibility.${m.visibility}`),
          tm(`transport.${m.transport}`),
          tm(`tier.${m.tier}`),
          m.memberCount,
          m.archivedAt ? t("meshes.archivedYes") : t("meshes.archivedNo"),
          <LocalTime key="c" iso={m.createdAt.toISOString()} />,
        ],
      }))}
    />
  );
}

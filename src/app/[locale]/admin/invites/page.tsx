import { getTranslations, setRequestLocale } from "next-intl/server";
import { sortState } from "@/components/admin/sorting";
import { TableView } from "@/components/admin/table-view";
import { LocalTime } from "@/components/local-time";
import { titleFrom } from "@/i18n/metadata";
import { Link } from "@/i18n/navigation";
import { adminViews, type RawParams } from "@/server/services/admin/view-params";
import { adminCaller } from "@/trpc/admin";

export const generateMetadata = titleFrom("admin.invites", "title");

export default async function AdminInvitesPage({
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
  const ts = await getTranslations("meshDetail.states");
  const view = adminViews.invites(await searchParams);
  const data = await (await adminCaller(locale)).admin.invites(view.input);
  const sort = (key: string) => sortState("/admin/invites", view.params, view.input, key);
  const yesNo = [
    { value: "", label: t("table.any") },
    { value: "yes", label: t("table.yes") },
    { value: "no", label: t("table.no") },
  ];
  return (
    <TableView
      table="invites"
      title={t("invites.title")}
      params={view.params}
      data={data}
      fields={[
        { name: "q", label: t("table.search"), kind: "search", hint: t("invites.searchHint") },
        { name: "revoked", label: t("invites.revoked"), kind: "select", options: yesNo },
        { name: "expired", label: t("invites.expired"), kind: "select", options: yesNo },
      ]}
      columns={[
        { label: t("invites.col.mesh") },
        { label: t("invites.col.role") },
        { label: t("invites.col.state") },
        { label: t("invites.col.uses"), numeric: true },
        { label: t("invites.col.createdBy") },
        { label: t("invites.col.expires"), sort: sort("expiresAt") },
        { label: t("invites.col.created"), sort: sort("createdAt") },
      ]}
      rows={data.items.map((i) => ({
        key: i.id,
        cells: [
          <Link key="m" href={`/admin/meshes/${i.mesh.id}`}>
            {i.mesh.slug}
          </Link>,
          tm(`roles.${i.role}`),
          <span key="s" className={`state state-${i.state}`}>
            {ts(i.state)}
          </span>,
          i.maxUses === null
            ? t("invites.usesUnlimited", { used: i.usedCount })
            : t("invites.uses", { used: i.usedCount, max: i.maxUses }),
          i.createdBy.email ?? i.createdBy.name ?? "",
          <LocalTime key="e" iso={i.expiresAt.toISOString()} />,
          <LocalTime key="c" iso={i.createdAt.toISOString()} />,
        ],
      }))}
    />
  );
}

import { getLocale, getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { getPathname } from "@/i18n/navigation";
import { ADMIN_CSV_MAX_ROWS } from "@/server/api/admin-csv";
import { viewQuery, type AdminTable } from "@/server/services/admin/view-params";
import { DataTable, type Column } from "./data-table";
import { FilterForm, type FilterField } from "./filter-form";
import { Pager } from "./pager";

interface Props {
  table: AdminTable;
  title: string;
  params: Record<string, string>;
  fields: FilterField[];
  columns: Column[];
  rows: { key: string; cells: ReactNode[] }[];
  data: { total: number; page: number; pageSize: number };
}

/** One admin table page: title, filters, CSV of the view, the table and its pager, all driven by the URL. */
export async function TableView({ table, title, params, fields, columns, rows, data }: Props) {
  const t = await getTranslations("admin.table");
  const locale = await getLocale();
  const base = `/admin/${table}`;
  const action = getPathname({ href: base, locale });
  const filtered = fields.some((f) => params[f.name]);
  const pageSize: FilterField = {
    name: "pageSize",
    label: t("pageSize"),
    kind: "select",
    options: ["20", "50", "100"].map((n) => ({ value: n === "20" ? "" : n, label: n })),
  };
  return (
    <section className="stack" aria-labelledby="admin-title">
      <h1 id="admin-title">{title}</h1>
      <FilterForm
        action={action}
        fields={[...fields, pageSize]}
        values={params}
        keep={["sort", "dir"]}
        labels={{ legend: t("filters"), apply: t("apply"), applying: t("applying"), clear: t("clear") }}
      />
      <div className="row-between">
        <p className="muted small">{t("csvHint", { max: ADMIN_CSV_MAX_ROWS })}</p>
        <a
          className="button secondary small"
          href={`/api/admin/csv/${table}${viewQuery(params, { page: undefined })}`}
          download
        >
          {t("csv")}
        </a>
      </div>
      <DataTable
        caption={title}
        regionLabel={t("scrollHint", { table: title })}
        columns={columns}
        rows={rows}
        empty={
          filtered ? (
            <p>
              {t("emptyFiltered")} <a href={action}>{t("clear")}</a>
            </p>
          ) : (
            <p>{t("empty")}</p>
          )
        }
      />
      <Pager base={base} params={params} page={data.page} pageSize={data.pageSize} total={data.total} />
    </section>
  );
}

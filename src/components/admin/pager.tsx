import { getTranslations } from "next-intl/server";
import { Link } from "@/i18n/navigation";
import { viewQuery } from "@/server/services/admin/view-params";

interface Props {
  base: string;
  params: Record<string, string>;
  page: number;
  pageSize: number;
  total: number;
}

/** Where the page stands in the table, with previous and next links that keep the view's params. */
export async function Pager({ base, params, page, pageSize, total }: Props) {
  const t = await getTranslations("admin.table");
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  return (
    <nav className="pager" aria-label={t("pagination")}>
      {page > 1 ? (
        <Link href={`${base}${viewQuery(params, { page: String(Math.min(page - 1, pages)) })}`}>{t("previous")}</Link>
      ) : (
        <span />
      )}
      <span>
        {total === 0 || from > total ? t("noRows") : t("showing", { from, to, total })} · {t("pageOf", { page, pages })}
      </span>
      {page < pages ? (
        <Link href={`${base}${viewQuery(params, { page: String(page + 1) })}`}>{t("next")}</Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

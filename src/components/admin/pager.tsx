import { getLocale, getTranslations } from "next-intl/server";
import { getPathname } from "@/i18n/navigation";
import { LinkPager } from "@/components/ui/pager";
import { viewQuery } from "@/server/services/admin/view-params";

interface Props {
  base: string;
  params: Record<string, string>;
  page: number;
  pageSize: number;
  total: number;
}

/**
 * Where the page stands in the table, with page numbers, previous and next, and a jump to any page,
 * all keeping the view's params (filters, sort, page size).
 */
export async function Pager({ base, params, page, pageSize, total }: Props) {
  const t = await getTranslations("admin.table");
  const locale = await getLocale();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  const hidden = Object.fromEntries(Object.entries(params).filter(([k, v]) => k !== "page" && v !== ""));
  return (
    <LinkPager
      label={t("pagination")}
      page={Math.min(page, pages)}
      pages={pages}
      hrefFor={(p) => `${base}${viewQuery(params, { page: p === 1 ? undefined : String(p) })}`}
      action={getPathname({ href: base, locale })}
      hidden={hidden}
      summary={
        <>
          {total === 0 || from > total ? t("noRows") : t("showing", { from, to, total })} ·{" "}
          {t("pageOf", { page, pages })}
        </>
      }
    />
  );
}

"use client";

import { useFormatter, useLocale, useTranslations } from "next-intl";
import { useMemo, useState } from "react";
import type { WidgetData } from "@/server/pipelines/types";
import { useFormats } from "@/i18n/use-formats";
import { useLabel } from "./use-label";
import { ScrollRegion } from "./scroll-region";
import { ButtonPager } from "@/components/ui/button-pager";
import { isTopic, TOPIC_VOCABULARY, type TopicDefinition } from "@/server/pipelines/review-analytics/topic-vocabulary";

type Data = Extract<WidgetData, { kind: "DataTable" }>;
const PAGE = 10;

/** Rows with search, sorting by any column and pages of ten. */
export function DataTableWidget({ data }: { data: Data }) {
  const t = useTranslations("pipelines.widget");
  const label = useLabel();
  const format = useFormatter();
  const f = useFormats();
  const [query, setQuery] = useState("");
  const [sort, setSort] = useState<{ column: string; dir: 1 | -1 } | null>(null);
  const [page, setPage] = useState(0);
  const rows = useMemo(() => {
    const q = query.trim().toLowerCase();
    const found = q
      ? data.rows.filter((r) =>
          Object.values(r).some((v) =>
            String(v ?? "")
              .toLowerCase()
              .includes(q),
          ),
        )
      : [...data.rows];
    if (sort) {
      found.sort((a, b) => {
        const x = a[sort.column];
        const y = b[sort.column];
        if (typeof x === "number" && typeof y === "number") return (x - y) * sort.dir;
        return String(x ?? "").localeCompare(String(y ?? "")) * sort.dir;
      });
    }
    return found;
  }, [data.rows, query, sort]);
  const pages = Math.max(1, Math.ceil(rows.length / PAGE));
  const current = Math.min(page, pages - 1);
  const locale = useLocale() as keyof TopicDefinition["label"];
  const cell = (v: string | number | null) => {
    // Numbers grouped and months in words, in the page's locale; the search still reads the raw values.
    if (typeof v === "number") return f.number(v);
    if (v === null) return v;
    if (/^\d{4}-\d{2}$/.test(v)) return f.month(v);
    // A complaint topic by its name in the page's language.
    if (isTopic(v)) return TOPIC_VOCABULARY[v].label[locale] ?? TOPIC_VOCABULARY[v].label.en;
    if (/^\d{4}-\d{2}-\d{2}T/.test(v)) return format.dateTime(new Date(v), { dateStyle: "medium", timeStyle: "short" });
    return /^(critical|high|medium|low|food|service|price|cleanliness|waiting_time|ambience|kitchen|front_of_house|management|facilities|operations)$/.test(
      v,
    )
      ? label(v)
      : v;
  };
  return (
    <div className="stack-sm">
      <label className="field">
        <span className="visually-hidden">{t("search")}</span>
        <input
          type="search"
          placeholder={t("search")}
          value={query}
          onChange={(e) => (setQuery(e.target.value), setPage(0))}
        />
      </label>
      <ScrollRegion label={t("table")} cards>
        <table className="table">
          <thead>
            <tr>
              {data.columns.map((c) => (
                <th
                  key={c}
                  scope="col"
                  aria-sort={sort?.column === c ? (sort.dir === 1 ? "ascending" : "descending") : "none"}
                >
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => setSort({ column: c, dir: sort?.column === c && sort.dir === 1 ? -1 : 1 })}
                  >
                    {label(c)}
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.slice(current * PAGE, current * PAGE + PAGE).map((r, i) => (
              <tr key={i}>
                {data.columns.map((c) => (
                  <td key={c}>{cell(r[c] ?? null)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      {rows.length === 0 ? <p className="muted">{t("noMatch")}</p> : null}
      {pages > 1 ? (
        <ButtonPager
          page={current + 1}
          pages={pages}
          onPage={(p) => setPage(p - 1)}
          label={t("pageOf", { page: current + 1, pages })}
        />
      ) : null}
    </div>
  );
}

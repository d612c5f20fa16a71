"use client";

import { useTranslations } from "next-intl";

/** A batch's progress: a native progress bar and its percentage. */
export function BatchProgress({ percent, label }: { percent: number; label: string }) {
  const t = useTranslations("engine");
  return (
    <span className="row" style={{ gap: "0.5rem", alignItems: "center" }}>
      <progress max={100} value={percent} aria-label={t("progressOf", { name: label })} data-percent={percent} />
      <span>{t("percent", { value: percent })}</span>
    </span>
  );
}

/** Previous / next for client-side paged tables. */
export function Pager({
  page,
  pageSize,
  total,
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (p: number) => void;
}) {
  const t = useTranslations("engine");
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label={t("pageOf", { page, pages })}>
      <button type="button" className="link-button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t("previous")}
      </button>
      <span>{t("pageOf", { page, pages })}</span>
      <button type="button" className="link-button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t("next")}
      </button>
    </nav>
  );
}

/** Loading, error and empty states shared by the engine's tables. */
export function QueryState({ loading, error, empty }: { loading: boolean; error: boolean; empty: boolean }) {
  const t = useTranslations("engine");
  if (error)
    return (
      <p className="alert" role="alert">
        {t("loadFailed")}
      </p>
    );
  if (loading)
    return (
      <p className="muted" role="status">
        {t("loading")}
      </p>
    );
  if (empty) return <p className="card empty">{t("empty")}</p>;
  return null;
}

/** Column header that sorts the table by a key (toggles the direction on a second click). */
export function SortHeader<K extends string>({
  label,
  k,
  sort,
  dir,
  onSort,
}: {
  label: string;
  k: K;
  sort: K;
  dir: "asc" | "desc";
  onSort: (k: K, d: "asc" | "desc") => void;
}) {
  const active = sort === k;
  return (
    <th aria-sort={active ? (dir === "asc" ? "ascending" : "descending") : "none"}>
      <button
        type="button"
        className="link-button"
        onClick={() => onSort(k, active && dir === "desc" ? "asc" : "desc")}
      >
        {label}
        {active ? (dir === "asc" ? " ▲" : " ▼") : ""}
      </button>
    </th>
  );
}

export { versionLabel } from "./status-stack";

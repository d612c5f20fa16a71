"use client";

import { useTranslations } from "next-intl";
import { ButtonPager } from "@/components/ui/button-pager";
import { SelectField } from "@/components/ui/select-field";
import { ListState } from "@/components/ui/states";

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

/** Page numbers for client-side paged tables (the design system's ButtonPager). */
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
    <ButtonPager
      page={page}
      pages={pages}
      onPage={onPage}
      label={t("pageOf", { page, pages })}
      summary={t("pageOf", { page, pages })}
    />
  );
}

/** Loading, error and empty states shared by the engine's tables. */
export function QueryState({ loading, error, empty }: { loading: boolean; error: boolean; empty: boolean }) {
  const t = useTranslations("engine");
  return (
    <ListState
      loading={loading}
      error={error}
      empty={empty}
      labels={{ loading: t("loading"), error: t("loadFailed"), empty: t("empty") }}
    />
  );
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

/**
 * The filter bar of an engine list (batches, jobs, schedules): a search box and a status select, each
 * change handed to the list (which goes back to its first page).
 */
export function SearchStatusFilters<S extends string>({
  q,
  onQ,
  status,
  onStatus,
  statuses,
  statusLabel,
}: {
  q: string;
  onQ: (q: string) => void;
  status: S | "";
  onStatus: (status: S | "") => void;
  statuses: readonly S[];
  statusLabel: (status: S) => string;
}) {
  const t = useTranslations("engine");
  return (
    <div className="row">
      <label className="field">
        <span>{t("search")}</span>
        <input type="search" value={q} onChange={(e) => onQ(e.target.value)} />
      </label>
      <SelectField
        label={t("status")}
        value={status}
        options={statuses}
        optionLabel={statusLabel}
        onChange={onStatus}
        allLabel={t("all")}
      />
    </div>
  );
}

import type { ReactNode } from "react";
import { useFormats } from "@/i18n/use-formats";
import { Link } from "@/i18n/navigation";
import { EmptyState } from "@/components/ui/states";

export interface SortState {
  active: boolean;
  dir: "asc" | "desc" | null;
  href: string;
}

export interface Column {
  label: string;
  sort?: SortState;
  numeric?: boolean;
}

interface Props {
  caption: string;
  /** Accessible name of the sideways-scrolling region around the table. */
  regionLabel: string;
  columns: Column[];
  rows: { key: string; cells: ReactNode[] }[];
  empty: ReactNode;
}

const ariaSort = { asc: "ascending", desc: "descending" } as const;

/** An admin table: sortable headers as links (the sort lives in the URL), an empty state instead of no rows. */
export function DataTable({ caption, regionLabel, columns, rows, empty }: Props) {
  const f = useFormats();
  if (rows.length === 0) return <EmptyState title={empty} />;
  return (
    // Focusable, so keyboard users can scroll a wide table on a narrow screen.
    <div className="table-wrap" role="region" aria-label={regionLabel} tabIndex={0}>
      <table className="data-table cards-on-phone">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th
                key={c.label}
                scope="col"
                className={c.numeric ? "num" : undefined}
                aria-sort={c.sort?.active && c.sort.dir ? ariaSort[c.sort.dir] : undefined}
              >
                {c.sort ? (
                  <Link
                    href={c.sort.href}
                    className={`sort ${c.sort.active ? `sort-${c.sort.dir}` : ""}`}
                    scroll={false}
                  >
                    {c.label}
                  </Link>
                ) : (
                  c.label
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              {row.cells.map((cell, i) => (
                <td key={i} className={columns[i]?.numeric ? "num" : undefined} data-label={columns[i]?.label}>
                  {typeof cell === "number" ? f.number(cell) : cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

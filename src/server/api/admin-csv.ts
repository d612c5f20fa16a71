import { TRPCError, type inferRouterOutputs } from "@trpc/server";
import { appCodeOfTrpc, ERROR_MAP, type AppErrorCode } from "@/server/core/errors";
import { toCsv, type CsvValue } from "@/server/services/admin/csv";
import { ADMIN_TABLES, adminViews, type AdminTable } from "@/server/services/admin/view-params";
import type { AppRouter, createCaller } from "./root";

/** Most rows one CSV export holds; the answer says when the view had more (x-export-truncated). */
export const ADMIN_CSV_MAX_ROWS = 10_000;
const PAGE_SIZE = 100;

type Out = inferRouterOutputs<AppRouter>["admin"];
type Caller = ReturnType<typeof createCaller>;
type Input<T extends AdminTable> = ReturnType<(typeof adminViews)[T]>["input"];
interface Columns<Row> {
  header: string[];
  row: (r: Row) => CsvValue[];
}

// Column names are stable machine names (not translated), so a script can read any export.
const meshes: Columns<Out["meshes"]["items"][number]> = {
  header: [
    "id",
    "slug",
    "name",
    "visibility",
    "transport",
    "tier",
    "archivedAt",
    "createdAt",
    "ownerName",
    "ownerEmail",
    "memberCount",
  ],
  row: (m) => [
    m.id,
    m.slug,
    m.name,
    m.visibility,
    m.transport,
    m.tier,
    m.archivedAt,
    m.createdAt,
    m.owner.name,
    m.owner.email,
    m.memberCount,
  ],
};
const sessions: Columns<Out["sessions"]["items"][number]> = {
  header: [
    "id",
    "meshSlug",
    "meshName",
    "member",
    "role",
    "status",
    "statusText",
    "nodeId",
    "connectedAt",
    "lastSeenAt",
    "disconnectedAt",
  ],
  row: (s) => [
    s.id,
    s.mesh.slug,
    s.mesh.name,
    s.member.displayName,
    s.member.role,
    s.status,
    s.statusText,
    s.nodeId,
    s.connectedAt,
    s.lastSeenAt,
    s.disconnectedAt,
  ],
};
const invites: Columns<Out["invites"]["items"][number]> = {
  header: [
    "id",
    "meshSlug",
    "meshName",
    "role",
    "state",
    "usedCount",
    "maxUses",
    "expiresAt",
    "revokedAt",
    "createdAt",
    "createdByName",
    "createdByEmail",
  ],
  row: (i) => [
    i.id,
    i.mesh.slug,
    i.mesh.name,
    i.role,
    i.state,
    i.usedCount,
    i.maxUses,
    i.expiresAt,
    i.revokedAt,
    i.createdAt,
    i.createdBy.name,
    i.createdBy.email,
  ],
};
const audit: Columns<Out["audit"]["items"][number]> = {
  header: ["id", "createdAt", "eventType", "meshSlug", "meshName", "actorUserId", "actorMemberId", "metadata"],
  row: (a) => [
    a.id,
    a.createdAt,
    a.eventType,
    a.mesh.slug,
    a.mesh.name,
    a.actorUserId,
    a.actorMemberId,
    a.metadata == null ? null : JSON.stringify(a.metadata),
  ],
};

/** Reads the pages of a view in order until it has them all or the row bound. */
async function collect<Row>(read: (page: number) => Promise<{ items: Row[]; total: number }>) {
  const rows: Row[] = [];
  let total = 0;
  for (let page = 1; rows.length < ADMIN_CSV_MAX_ROWS; page++) {
    const got = await read(page);
    total = got.total;
    rows.push(...got.items);
    if (got.items.length < PAGE_SIZE || rows.length >= total) break;
  }
  return { rows: rows.slice(0, ADMIN_CSV_MAX_ROWS), total };
}

async function render<Row>(columns: Columns<Row>, read: (page: number) => Promise<{ items: Row[]; total: number }>) {
  const { rows, total } = await collect(read);
  return { csv: toCsv(columns.header, rows.map(columns.row)), rows: rows.length, total };
}

/**
 * The CSV of one admin table under the filters and sort of the page's URL, all pages of it up to
 * ADMIN_CSV_MAX_ROWS, read through the admin procedures (so the admin rule is the API's own).
 */
export async function adminCsv<T extends AdminTable>(caller: Caller, table: T, input: Input<T>) {
  const at = (page: number) => ({ ...input, page, pageSize: PAGE_SIZE });
  switch (table) {
    case "meshes":
      return render(meshes, (p) => caller.admin.meshes(at(p) as Input<"meshes">));
    case "sessions":
      return render(sessions, (p) => caller.admin.sessions(at(p) as Input<"sessions">));
    case "invites":
      return render(invites, (p) => caller.admin.invites(at(p) as Input<"invites">));
    default:
      return render(audit, (p) => caller.admin.audit(at(p) as Input<"audit">));
  }
}

const error = (code: AppErrorCode, message: string) =>
  Response.json({ error: { code, message } }, { status: ERROR_MAP[code].http });

/**
 * The answer of GET /api/admin/csv/{table}?<the page's own search params>: the URL is read by the
 * same view reader as the page (adminViews), so the export holds exactly the rows the page filters.
 */
export async function adminCsvResponse(caller: Caller, table: string, search: URLSearchParams): Promise<Response> {
  if (!ADMIN_TABLES.includes(table as AdminTable)) return error("NOT_FOUND", "no_such_table");
  const name = table as AdminTable;
  const view = adminViews[name](search);
  try {
    const out = await adminCsv(caller, name, view.input);
    const day = new Date().toISOString().slice(0, 10);
    // A byte-order mark, so spreadsheet programs read the UTF-8 names (Ärger, Ñandú) correctly.
    return new Response(`\uFEFF${out.csv}`, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="admin-${name}-${day}.csv"`,
        "cache-control": "no-store",
        "x-total-count": String(out.total),
        "x-export-truncated": String(out.rows < out.total),
      },
    });
  } catch (cause) {
    if (!(cause instanceof TRPCError)) throw cause;
    const code = appCodeOfTrpc(cause.code) ?? "INTERNAL";
    return error(code, code === "INTERNAL" ? "internal_error" : cause.message);
  }
}

import { TRPCError } from "@trpc/server";
import { adminCsv } from "@/server/api/admin-csv";
import { createCaller } from "@/server/api/root";
import { createContext } from "@/server/api/trpc";
import { getSessionUser } from "@/server/auth/session-user";
import { appCodeOfTrpc, ERROR_MAP, type AppErrorCode } from "@/server/core/errors";
import { ADMIN_TABLES, adminViews, type AdminTable } from "@/server/services/admin/view-params";

export const dynamic = "force-dynamic";

const error = (code: AppErrorCode, message: string) =>
  Response.json({ error: { code, message } }, { status: ERROR_MAP[code].http });

/**
 * GET /api/admin/csv/{meshes|sessions|invites|audit}?<the page's own search params>: the current
 * view of an admin table as CSV (docs/admin-console.md). Administrators only.
 */
export async function GET(req: Request, { params }: { params: Promise<{ table: string }> }) {
  const { table } = await params;
  if (!ADMIN_TABLES.includes(table as AdminTable)) return error("NOT_FOUND", "no_such_table");
  const name = table as AdminTable;
  const view = adminViews[name](new URL(req.url).searchParams);
  const caller = createCaller(createContext({ resolveUser: getSessionUser, headers: req.headers }));
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

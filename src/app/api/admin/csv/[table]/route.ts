import { adminCsvResponse } from "@/server/api/admin-csv";
import { createCaller } from "@/server/api/root";
import { createContext } from "@/server/api/trpc";
import { getSessionUser } from "@/server/auth/session-user";

export const dynamic = "force-dynamic";

/**
 * GET /api/admin/csv/{meshes|sessions|invites|audit}?<the page's own search params>: the current
 * view of an admin table as CSV (docs/admin-console.md). Administrators only.
 */
export async function GET(req: Request, { params }: { params: Promise<{ table: string }> }) {
  const { table } = await params;
  const caller = createCaller(createContext({ resolveUser: getSessionUser, headers: req.headers }));
  return adminCsvResponse(caller, table, new URL(req.url).searchParams);
}

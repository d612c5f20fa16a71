import { z } from "zod";
import { AppError } from "@/server/core/errors";
import { EXPORT_FORMATS, exportStream } from "@/server/services/reviews/review-out";
import { engineRoute } from "./engine-route";
import type { SessionUser } from "./trpc";

const ZExportQuery = z.object({ format: z.enum(EXPORT_FORMATS).default("csv"), bom: z.enum(["true", "false", "1", "0"]).optional() });
const ZUuid = z.uuid();

/**
 * GET /api/jobs/{job_id}/reviews/export and /api/batches/{batch_id}/reviews/export, `?format=csv|ndjson`
 * (`bom=true` puts a UTF-8 byte-order mark before a CSV for spreadsheet programs): every review of the
 * job or batch, streamed (docs/review-engine.md, "Reviews out"). Scope jobs:read, as for jobs.
 */
export function reviewExport(kind: "job" | "batch", resolveUser: () => Promise<SessionUser | null>) {
  return async (req: Request, { params }: { params: Promise<Record<string, string>> }) => {
    const id = (await params)[kind === "job" ? "job_id" : "batch_id"];
    return engineRoute(req, "jobs:read", resolveUser, async (ctx, actor) => {
      const url = new URL(req.url);
      const query = ZExportQuery.safeParse(Object.fromEntries(url.searchParams));
      if (!query.success) throw new AppError("BAD_REQUEST", "invalid_input", { issues: query.error.issues.map((i) => ({ path: i.path, message: i.message })) });
      if (!ZUuid.safeParse(id).success) throw new AppError("NOT_FOUND", `${kind}_not_found`);
      const { format, bom } = query.data;
      const body = await exportStream(ctx.db, actor, kind === "job" ? { job_id: id! } : { batch_id: id! }, format, { bom: bom === "true" || bom === "1" });
      const day = new Date().toISOString().slice(0, 10);
      return new Response(body, {
        headers: {
          "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
          "content-disposition": `attachment; filename="${kind}-${id}-reviews-${day}.${format}"`,
          "cache-control": "no-store",
          "x-content-type-options": "nosniff",
        },
      });
    });
  };
}

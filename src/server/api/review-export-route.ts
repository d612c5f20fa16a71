import { z } from "zod";
import { AppError, validationIssues } from "@/server/core/errors";
import { placeExport } from "@/server/services/reviews/places";
import { ZPlaceExportInput } from "@/server/services/reviews/places.schema";
import { exportStream } from "@/server/services/reviews/review-export";
import { ZExportQuery } from "@/server/services/reviews/review-export.schema";
import { engineRoute } from "./engine-route";
import type { SessionUser } from "./trpc";

const ZUuid = z.uuid();
const PARAM = { job: "job_id", batch: "batch_id", place: "place_id" } as const;

function invalid(error: z.ZodError): AppError {
  return new AppError("BAD_REQUEST", "invalid_input", { issues: validationIssues(error.issues) });
}

/**
 * GET /api/jobs/{job_id}/reviews/export, /api/batches/{batch_id}/reviews/export and
 * /api/places/{place_id}/reviews/export (with the place page's filters), `?format=csv|ndjson`
 * (`bom=true` puts a UTF-8 byte-order mark before a CSV for spreadsheet programs): every review of the
 * set, streamed (docs/review-engine.md, "Reviews out"). Scope jobs:read, as for jobs.
 */
export function reviewExport(kind: "job" | "batch" | "place", resolveUser: () => Promise<SessionUser | null>) {
  return async (req: Request, { params }: { params: Promise<Record<string, string>> }) => {
    const id = (await params)[PARAM[kind]] ?? "";
    return engineRoute(req, "jobs:read", resolveUser, async (service) => {
      const url = new URL(req.url);
      const { format: rawFormat, bom: rawBom, ...filters } = Object.fromEntries(url.searchParams);
      const query = ZExportQuery.safeParse({ format: rawFormat, bom: rawBom });
      if (!query.success) throw invalid(query.error);
      if (!ZUuid.safeParse(id).success) throw new AppError("NOT_FOUND", `${kind}_not_found`);
      const { format } = query.data;
      const bom = query.data.bom === "true" || query.data.bom === "1";
      let body: ReadableStream<Uint8Array>;
      if (kind === "place") {
        const input = ZPlaceExportInput.safeParse({ ...filters, place_id: id });
        if (!input.success) throw invalid(input.error);
        body = await placeExport(service, { ...input.data, format, bom });
      } else {
        body = await exportStream(service, { ...(kind === "job" ? { job_id: id } : { batch_id: id }), format, bom });
      }
      const day = service.now().toISOString().slice(0, 10);
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

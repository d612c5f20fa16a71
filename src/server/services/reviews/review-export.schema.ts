import { z } from "zod";

// The query of the streamed exports (review-export.ts, places.ts), parsed once by the export route.

export const EXPORT_FORMATS = ["csv", "ndjson"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** `?format=csv|ndjson&bom=true|false|1|0` of GET …/reviews/export. */
export const ZExportQuery = z.object({
  format: z.enum(EXPORT_FORMATS).default("csv"),
  bom: z.enum(["true", "false", "1", "0"]).optional(),
});

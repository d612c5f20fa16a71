import { z } from "zod";
import { SCRAPE_ERROR_CLASSES } from "@/server/scrapers/types";
import { ZJobOut } from "./job-output.schema";
import { JOB_STATUSES } from "./schemas";

// Inputs and outputs of the four dashboards (dashboards.ts).

export const ZDashboardInput = z.object({
  hours: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(24),
});

const ZRate = z.number().nullable();

const ZCounts = z.object(
  Object.fromEntries(JOB_STATUSES.map((s) => [s, z.number().int()])) as Record<
    (typeof JOB_STATUSES)[number],
    z.ZodNumber
  >,
);

export const ZOverviewOut = z.object({
  hours: z.number().int(),
  total: z.number().int(),
  by_status: ZCounts,
  success_rate: ZRate,
  avg_duration_ms: z.number().int().nullable(),
  reviews_collected: z.number().int(),
  callbacks: z.object({ pending: z.number().int(), delivered: z.number().int(), failed: z.number().int() }),
  top_clients: z.array(z.object({ client_id: z.string(), jobs: z.number().int() })),
  timeline: z.array(
    z.object({ hour: z.string(), succeeded: z.number().int(), failed: z.number().int(), other: z.number().int() }),
  ),
});

export const ZByClientOut = z.object({
  hours: z.number().int(),
  clients: z.array(
    z.object({
      client_id: z.string(),
      total: z.number().int(),
      by_status: ZCounts,
      success_rate: ZRate,
      reviews: z.number().int(),
    }),
  ),
});

export const ZProblemsOut = z.object({
  hours: z.number().int(),
  by_error_class: z.array(z.object({ error_class: z.enum(SCRAPE_ERROR_CLASSES), jobs: z.number().int() })),
  by_version: z.array(
    z.object({
      scraper_version: z.string().nullable(),
      scraper_variant: z.string().nullable(),
      error_class: z.enum(SCRAPE_ERROR_CLASSES),
      jobs: z.number().int(),
    }),
  ),
  failed_callbacks: z.number().int(),
  recent: z.array(ZJobOut),
});

export const ZByVersionOut = z.object({
  hours: z.number().int(),
  versions: z.array(
    z.object({
      scraper_version_id: z.string().nullable(),
      scraper_version: z.string().nullable(),
      scraper_variant: z.string().nullable(),
      implementation: z.string().nullable(),
      traffic_percent: z.number().int().nullable(),
      deprecated: z.boolean().nullable(),
      total: z.number().int(),
      by_status: ZCounts,
      success_rate: ZRate,
      avg_duration_ms: z.number().int().nullable(),
      reviews: z.number().int(),
      errors: z.record(z.string(), z.number().int()),
    }),
  ),
});

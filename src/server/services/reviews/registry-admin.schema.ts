import { z } from "zod";
import { ZDate } from "./schemas";

const ZLabel = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9._-]+$/, { error: "letters, digits, dot, dash, underscore" });
const ZPercent = z.number().int().min(0).max(100);

/**
 * A version's config: free JSON, except `platformUrl`, the platform the version reads (its origin is
 * the only one its jobs may target; docs/review-engine.md, "Targets").
 */
const ZScraperConfigInput = z
  .object({
    platformUrl: z
      .url({ protocol: /^https?$/, error: "must be an http or https URL" })
      .max(2048)
      .optional(),
  })
  .catchall(z.unknown())
  .refine((c) => c.platformUrl === undefined || !/^[a-z]+:\/\/[^/]*@/i.test(c.platformUrl), {
    error: "platformUrl must not carry credentials",
    path: ["platformUrl"],
  });

export const ZScraperVersionOut = z.object({
  id: z.string(),
  platform: z.string(),
  version: z.string(),
  variant: z.string(),
  implementation: z.string(),
  description: z.string().nullable(),
  config: z.record(z.string(), z.unknown()),
  traffic_percent: z.number().int(),
  deprecated: z.boolean(),
  deprecated_at: ZDate.nullable(),
  promoted_at: ZDate.nullable(),
  created_at: ZDate,
  updated_at: ZDate,
});
export type TScraperVersionOut = z.output<typeof ZScraperVersionOut>;

export const ZListScrapersInput = z.object({
  platform: ZLabel.default("platform"),
  include_deprecated: z.enum(["true", "false"]).default("true"),
});
export const ZScrapersOut = z.object({ items: z.array(ZScraperVersionOut), allocation_sum: z.number().int() });

export const ZCreateScraperInput = z.object({
  /** Registry namespace; the installation routes jobs of "platform" (the default). */
  platform: ZLabel.default("platform"),
  version: ZLabel,
  variant: ZLabel.default("default"),
  implementation: z.string().trim().min(1).max(100),
  description: z.string().trim().max(500).optional(),
  config: ZScraperConfigInput.default({}),
  traffic_percent: ZPercent.default(0),
});
export type TCreateScraperInput = z.input<typeof ZCreateScraperInput>;

export const ZScraperIdInput = z.object({ id: z.uuid() });
export const ZUpdateScraperInput = z.object({
  id: z.uuid(),
  implementation: z.string().trim().min(1).max(100).optional(),
  description: z.string().trim().max(500).nullable().optional(),
  config: ZScraperConfigInput.optional(),
});
export const ZScraperTrafficInput = z.object({ id: z.uuid(), traffic_percent: ZPercent });

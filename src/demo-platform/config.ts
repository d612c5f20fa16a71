import { z } from "zod";
import { envInt, envPort } from "../server/core/config";

/** Environment of the demo reviews platform; every name and default is listed in the README. */
export const ZDemoPlatformConfig = z.object({
  DEMO_PLATFORM_PORT: envPort(4200),
  DEMO_PLATFORM_HOST: z.string().min(1).default("127.0.0.1"),
  DEMO_PLATFORM_SEED: envInt(42, 0, 2 ** 31 - 1),
  DEMO_PLATFORM_PLACES: envInt(40, 1, 2000),
  DEMO_PLATFORM_ANCHOR: z
    .string()
    .default("2026-11-01T00:00:00Z")
    .refine((v) => !Number.isNaN(Date.parse(v)), { error: "must be an ISO date" })
    .transform((v) => new Date(v)),
  DEMO_PLATFORM_LAYOUT: z.enum(["per-place", "1", "2"]).default("per-place"),
  DEMO_PLATFORM_LATENCY_MS: envInt(0, 0, 120_000),
  DEMO_PLATFORM_ERROR_RATE: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const n = v === undefined || v === "" ? 0 : Number(v);
      if (!(n >= 0 && n <= 1)) {
        ctx.addIssue({ code: "custom", message: "must be a number from 0 to 1" });
        return z.NEVER;
      }
      return n;
    }),
  DEMO_PLATFORM_RATE_CAPACITY: envInt(600, 1, 1_000_000),
  DEMO_PLATFORM_RATE_PER_MINUTE: envInt(6000, 0, 10_000_000),
  /** When set, /admin/* needs `Authorization: Bearer <token>`. */
  DEMO_PLATFORM_ADMIN_TOKEN: z.string().min(1).optional(),
});
export type TDemoPlatformConfig = z.output<typeof ZDemoPlatformConfig>;

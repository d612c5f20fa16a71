import { z } from "zod";

/** A member's groups: at most 16 names of 1-32 characters a-z 0-9 _ - (lower-cased, no repeats). */
export const ZGroups = z
  .array(
    z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, { error: "group_invalid" }),
  )
  .max(16)
  .transform((g) => [...new Set(g)]);

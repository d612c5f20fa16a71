import { z } from "zod";

export const ZUpdateProfileInput = z.object({
  name: z.string().trim().min(1, { error: "name_required" }).max(80, { error: "name_too_long" }),
});

export type TUpdateProfileInput = z.output<typeof ZUpdateProfileInput>;

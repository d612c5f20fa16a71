import { z } from "zod";
import { ZDate } from "./common";

// Output schema of the public statistics.

export const ZStatsOut = z.object({
  messagesRouted: z.number().int(),
  meshesCreated: z.number().int(),
  peersActive: z.number().int(),
  lastUpdated: ZDate,
});

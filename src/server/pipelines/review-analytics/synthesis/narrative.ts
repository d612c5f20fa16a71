import { z } from "zod";

/** The narrative texts a writer produces (deterministic or language model). */
export const ZNarrative = z.object({
  headline: z.string().min(1).max(300),
  narrative: z.string().min(1).max(3000),
  sentiment_insights: z.array(z.string().min(1).max(600)).min(1).max(8),
  category_insights: z.array(z.string().min(1).max(600)).min(1).max(10),
  timeline_insights: z.array(z.string().min(1).max(600)).min(1).max(8),
  action_plan: z.array(z.string().min(1).max(600)).min(1).max(10),
  marketing_angles: z.array(z.string().min(1).max(600)).min(1).max(8),
  priority_recommendations: z.array(z.string().min(1).max(600)).min(1).max(8),
});
export type TNarrative = z.infer<typeof ZNarrative>;

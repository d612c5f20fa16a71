import { z } from "zod";
import { previewInvite } from "@/server/services/invites/preview-invite";
import { PublicStatsCache } from "@/server/services/stats/public-stats";
import { createTRPCRouter, publicProcedure } from "../trpc";

const statsCache = new PublicStatsCache();

/** Unauthenticated operations (Document 3, router public). */
export const publicRouter = createTRPCRouter({
  stats: publicProcedure.query(async ({ ctx }) => {
    const { stats, cache } = await statsCache.get(ctx.db);
    ctx.responseHeaders.set("cache-control", "public, s-maxage=60");
    ctx.responseHeaders.set("x-cache", cache);
    return stats;
  }),
  invitePreview: publicProcedure
    // Any string is accepted: the codec answers `malformed` for whatever is not a token.
    .input(z.object({ token: z.string().max(1_000_000) }))
    .query(async ({ ctx, input }) => {
      const preview = await previewInvite(ctx, input.token);
      ctx.responseHeaders.set("cache-control", preview.valid ? "public, max-age=30" : "no-store");
      return preview;
    }),
});

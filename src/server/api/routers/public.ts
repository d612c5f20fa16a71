import { z } from "zod";
import { clientAddress } from "@/server/core/client-address";
import { AppError } from "@/server/core/errors";
import { TokenBucketLimiter } from "@/server/core/token-bucket";
import { appEnv } from "@/server/env";
import { previewInvite } from "@/server/services/invites/preview-invite";
import { PublicStatsCache } from "@/server/services/stats/public-stats";
import * as out from "../outputs";
import { createTRPCRouter, publicProcedure } from "../trpc";

const statsCache = new PublicStatsCache();
let previewLimiter: TokenBucketLimiter | undefined;
const previewBucket = () => {
  const perMinute = appEnv().PREVIEW_RATE_PER_MINUTE;
  previewLimiter ??= new TokenBucketLimiter({ capacity: perMinute, refillPerMinute: perMinute });
  return previewLimiter;
};
const rest = (path: `/${string}`, summary: string) => ({ openapi: { method: "GET" as const, path, summary, tags: ["public"] } });

/** Unauthenticated operations (Document 3, router public). */
export const publicRouter = createTRPCRouter({
  stats: publicProcedure
    .meta(rest("/public/stats", "Aggregate counts (cached 60 s)"))
    .input(z.void())
    .output(out.ZStatsOut)
    .query(async ({ ctx }) => {
      const { stats, cache } = await statsCache.get(ctx.db);
      ctx.responseHeaders.set("cache-control", "public, s-maxage=60");
      ctx.responseHeaders.set("x-cache", cache);
      return stats;
    }),
  invitePreview: publicProcedure
    .meta(rest("/public/invite/{token}", "Preview an invite"))
    // Any string is accepted: the codec answers `malformed` for whatever is not a token.
    .input(z.object({ token: z.string().max(1_000_000) }))
    .output(out.ZPreviewOut)
    .query(async ({ ctx, input }) => {
      const taken = previewBucket().take(clientAddress(ctx.headers));
      if (!taken.allowed) {
        ctx.responseHeaders.set("retry-after", String(Math.ceil(taken.retryAfterMs / 1000)));
        ctx.responseHeaders.set("cache-control", "no-store");
        throw new AppError("TOO_MANY_REQUESTS", "rate_limited", { retryAfterSeconds: Math.ceil(taken.retryAfterMs / 1000) });
      }
      const preview = await previewInvite(ctx, input.token);
      ctx.responseHeaders.set("cache-control", preview.valid ? "public, max-age=30" : "no-store");
      return preview;
    }),
});

import type http from "node:http";
import { z } from "zod";
import { retryAfterHeader, TokenBucketLimiter } from "../server/core/token-bucket";
import { problem, type TSurface } from "./respond";
import { FORCED_STATUSES, type TPlatformSettings } from "./settings";

/** Knobs any place request may carry in its query string (forced latency, status and layout). */
export const ZKnobs = z.object({
  latency: z.coerce.number().int().min(0).max(120_000).optional(),
  status: z.coerce.number().pipe(z.literal(FORCED_STATUSES)).optional(),
  layout: z.coerce
    .number()
    .pipe(z.literal([1, 2]))
    .optional(),
  /** "renamed": review cards come with other class names (a partial layout change: the tab stays, the cards differ). */
  markup: z.enum(["standard", "renamed"]).optional(),
  /** "relative": layout 2 writes dates older than a week as "3 weeks ago", "2 months ago", "1 year ago" (no exact value). */
  dates: z.enum(["exact", "relative"]).optional(),
});
export type TKnobs = z.output<typeof ZKnobs>;

/** The platform's own rate limit: one token bucket per client address, rebuilt when the settings change. */
export class PlatformRateLimit {
  private limiter: TokenBucketLimiter | null = null;
  private key = "";

  constructor(private readonly getSettings: () => TPlatformSettings) {}

  /** Takes a token; answers 429 with Retry-After and RateLimit headers and returns false when none is left. */
  admit(req: http.IncomingMessage, res: http.ServerResponse, surface: TSurface): boolean {
    const { capacity, perMinute } = this.getSettings().rateLimit;
    if (perMinute === 0) return true;
    const key = `${capacity}/${perMinute}`;
    if (!this.limiter || key !== this.key) {
      this.limiter = new TokenBucketLimiter({ capacity, refillPerMinute: perMinute });
      this.key = key;
    }
    const client = req.socket.remoteAddress ?? "unknown";
    const taken = this.limiter.take(client);
    const policy = `"platform";q=${capacity};w=${Math.max(1, Math.round((capacity / perMinute) * 60))}`;
    res.setHeader("RateLimit-Policy", policy);
    res.setHeader("RateLimit", `"platform";r=${taken.remaining};t=${Math.ceil(taken.resetMs / 1000)}`);
    if (taken.allowed) return true;
    problem(res, surface, 429, {
      headers: retryAfterHeader(taken),
    });
    return false;
  }

  sweep(): void {
    this.limiter?.sweep();
  }
}

/** Waits, unless the client goes away first (then resolves false). */
export function delay(res: http.ServerResponse, ms: number): Promise<boolean> {
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      res.off("close", gone);
      resolve(!res.destroyed);
    }, ms);
    const gone = () => {
      clearTimeout(timer);
      resolve(false);
    };
    res.once("close", gone);
  });
}

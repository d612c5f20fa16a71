import { TokenBucketLimiter } from "@/server/core/token-bucket";

/**
 * Limits sign-in or sign-up attempts twice: per e-mail address (stops guessing one account's password,
 * or probing one address, from many clients) and per client address (stops one client trying many
 * accounts). Both must allow. Each limiter holds a bounded number of buckets (token-bucket.ts).
 */
export class AttemptLimiter {
  private readonly byEmail: TokenBucketLimiter;
  private readonly byClient: TokenBucketLimiter;

  constructor(opts: { perEmailPerMinute: number; perClientPerMinute: number; now?: () => number }) {
    this.byEmail = new TokenBucketLimiter({ capacity: opts.perEmailPerMinute, refillPerMinute: opts.perEmailPerMinute, now: opts.now });
    this.byClient = new TokenBucketLimiter({ capacity: opts.perClientPerMinute, refillPerMinute: opts.perClientPerMinute, now: opts.now });
  }

  /** Counts one attempt; false when either bucket is empty. */
  attempt(email: string, client: string): boolean {
    const emailOk = this.byEmail.take(email.trim().toLowerCase()).allowed;
    const clientOk = this.byClient.take(client).allowed;
    return emailOk && clientOk;
  }
}

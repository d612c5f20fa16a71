import { TokenBucketLimiter } from "@/server/core/token-bucket";

/**
 * Limits sign-in attempts twice: per e-mail address (stops guessing one account's password from many
 * addresses) and per client address (stops one client trying many accounts). Both must allow.
 */
export class SignInLimiter {
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
    if (this.byEmail.size + this.byClient.size > 50_000) {
      this.byEmail.sweep();
      this.byClient.sweep();
    }
    return emailOk && clientOk;
  }
}

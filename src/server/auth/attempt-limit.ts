import { TokenBucketLimiter } from "@/server/core/token-bucket";
import { appEnv } from "@/server/env";

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

let signIn: AttemptLimiter | undefined;

/**
 * The one limiter of password guesses at an account: sign-in and the current password of a password
 * change draw from the same buckets, so a stolen session cannot guess the password faster than the
 * sign-in form allows (SIGNIN_RATE_PER_MINUTE, SIGNIN_CLIENT_RATE_PER_MINUTE).
 */
export function signInLimiter(): AttemptLimiter {
  const env = appEnv();
  signIn ??= new AttemptLimiter({ perEmailPerMinute: env.SIGNIN_RATE_PER_MINUTE, perClientPerMinute: env.SIGNIN_CLIENT_RATE_PER_MINUTE });
  return signIn;
}

import { db } from "@/server/core/db";
import { localLimiter, SharedLimiter, type RateLimiter } from "@/server/core/shared-limit";
import { TokenBucketLimiter } from "@/server/core/token-bucket";
import { appEnv } from "@/server/env";

/**
 * Limits sign-in or sign-up attempts twice: per e-mail address (stops guessing one account's password,
 * or probing one address, from many clients) and per client address (stops one client trying many
 * accounts). Both must allow. The buckets are counted in PostgreSQL (shared-limit.ts), so every web
 * process draws from the same ones; the addresses are stored hashed.
 */
export class AttemptLimiter {
  constructor(private readonly limiters: { byEmail: RateLimiter; byClient: RateLimiter }) {}

  /** In-process buckets (tests of the rule; no database). */
  static local(opts: { perEmailPerMinute: number; perClientPerMinute: number; now?: () => number }): AttemptLimiter {
    const bucket = (n: number) =>
      localLimiter(new TokenBucketLimiter({ capacity: n, refillPerMinute: n, ...(opts.now ? { now: opts.now } : {}) }));
    return new AttemptLimiter({ byEmail: bucket(opts.perEmailPerMinute), byClient: bucket(opts.perClientPerMinute) });
  }

  /** Buckets shared by every process, named `<name>-email` and `<name>-client`. */
  static shared(name: string, opts: { perEmailPerMinute: number; perClientPerMinute: number }): AttemptLimiter {
    const bucket = (kind: string, n: number) =>
      new SharedLimiter({ name: `${name}-${kind}`, capacity: n, refillPerMinute: n, db });
    return new AttemptLimiter({
      byEmail: bucket("email", opts.perEmailPerMinute),
      byClient: bucket("client", opts.perClientPerMinute),
    });
  }

  /** Counts one attempt; false when either bucket is empty. */
  async attempt(email: string, client: string): Promise<boolean> {
    const [byEmail, byClient] = await Promise.all([
      this.limiters.byEmail.take(email.trim().toLowerCase()),
      this.limiters.byClient.take(client),
    ]);
    return byEmail.allowed && byClient.allowed;
  }
}

let signIn: AttemptLimiter | undefined;
let signUp: AttemptLimiter | undefined;

/**
 * The one limiter of password guesses at an account: sign-in and the current password of a password
 * change draw from the same buckets, so a stolen session cannot guess the password faster than the
 * sign-in form allows (SIGNIN_RATE_PER_MINUTE, SIGNIN_CLIENT_RATE_PER_MINUTE).
 */
export function signInLimiter(): AttemptLimiter {
  const env = appEnv();
  signIn ??= AttemptLimiter.shared("signin", {
    perEmailPerMinute: env.SIGNIN_RATE_PER_MINUTE,
    perClientPerMinute: env.SIGNIN_CLIENT_RATE_PER_MINUTE,
  });
  return signIn;
}

/** Sign-up attempts (SIGNUP_RATE_PER_MINUTE, SIGNUP_CLIENT_RATE_PER_MINUTE). */
export function signUpLimiter(): AttemptLimiter {
  const env = appEnv();
  signUp ??= AttemptLimiter.shared("signup", {
    perEmailPerMinute: env.SIGNUP_RATE_PER_MINUTE,
    perClientPerMinute: env.SIGNUP_CLIENT_RATE_PER_MINUTE,
  });
  return signUp;
}

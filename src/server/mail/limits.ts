import { db } from "@/server/core/db";
import { AppError } from "@/server/core/errors";
import { SharedLimiter, type RateLimiter } from "@/server/core/shared-limit";
import { retryAfterSeconds } from "@/server/core/token-bucket";
import { appEnv } from "@/server/env";

/** A bucket of `n` per hour (refilled evenly), shared by every process through `rate_limits`. */
const perHour = (name: string, n: number) => new SharedLimiter({ name, capacity: n, refillPerMinute: n / 60, db });
const perMinute = (name: string, n: number) => new SharedLimiter({ name, capacity: n, refillPerMinute: n, db });

interface MailLimits {
  /** Mails about one address (reset requests) or one account (verification resends, address changes). */
  perAddress: RateLimiter;
  /** Reset requests per client address. */
  perClient: RateLimiter;
  /** Invites sent by e-mail per user. */
  invitesPerUser: RateLimiter;
}

let limits: MailLimits | undefined;

/** The mail limits (MAIL_PER_ADDRESS_PER_HOUR, MAIL_CLIENT_RATE_PER_MINUTE, INVITE_EMAILS_PER_HOUR). */
export function mailLimits(): MailLimits {
  if (!limits) {
    const env = appEnv();
    limits = {
      perAddress: perHour("mail-address", env.MAIL_PER_ADDRESS_PER_HOUR),
      perClient: perMinute("mail-client", env.MAIL_CLIENT_RATE_PER_MINUTE),
      invitesPerUser: perHour("mail-invite", env.INVITE_EMAILS_PER_HOUR),
    };
  }
  return limits;
}

/**
 * Takes one token from each bucket (all of them, so a refusal costs the same as a pass); TOO_MANY_REQUESTS
 * `rate_limited` when any is empty.
 */
export async function takeMailTokens(takes: [RateLimiter, string][]): Promise<void> {
  const results = await Promise.all(takes.map(([limiter, key]) => limiter.take(key)));
  const refused = results.filter((r) => !r.allowed);
  if (refused.length > 0) {
    const wait = Math.max(...refused.map((r) => r.retryAfterMs));
    throw new AppError("TOO_MANY_REQUESTS", "rate_limited", { retryAfterSeconds: retryAfterSeconds(wait) });
  }
}

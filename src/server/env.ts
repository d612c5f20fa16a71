import { z } from "zod";
import { ZTrustedBrokerUrls } from "./core/broker-origin";
import { ZTrustProxy } from "./core/client-address";
import { envInt, parseConfig, ZDatabaseUrl } from "./core/config";
import { DEFAULT_MAX_REQUEST_BYTES } from "./http/body-limit";
import { ZMailEnv } from "./mail/settings";

/** Settings of the web app, validated on first use (not at import, so `next build` needs none). */
export const ZAppEnv = z.object({
  DATABASE_URL: ZDatabaseUrl,
  AUTH_SECRET: z.string().min(32, { error: "must be at least 32 characters" }),
  /** Comma-separated e-mail addresses of administrators. */
  ADMIN_EMAILS: z.string().default(""),
  /** Public address of the web app, used in links shown to people. */
  PUBLIC_BASE_URL: z.url({ error: "must be an absolute URL" }).default("http://localhost:3000"),
  /** The origin Auth.js uses for its callbacks; unset: the address the user opened (docs/security.md). */
  AUTH_URL: z.url({ error: "must be an absolute URL" }).optional(),
  /** Largest request body of any route (413 above it; some routes take less). */
  MAX_REQUEST_BYTES: envInt(DEFAULT_MAX_REQUEST_BYTES, 1024, 64 * 1024 * 1024),
  /** Which X-Forwarded-For hops to believe: unset (none), a proxy count, or proxy addresses/CIDRs. */
  TRUST_PROXY: ZTrustProxy,
  /** Address of the broker that invites send peers to. */
  PUBLIC_BROKER_URL: z
    .string()
    .regex(/^wss?:\/\/[^|\s]+$/, { error: "must be a ws:// or wss:// URL" })
    .default("ws://localhost:4000"),
  /** Other brokers of this deployment the command line may send its account token to (docs/cli.md); default none. */
  TRUSTED_BROKER_URLS: ZTrustedBrokerUrls,
  /** Key ring sealing secrets at rest: "id:base64key,..." (the first seals, any opens); see docs/secrets.md. */
  SECRETS_KEYS: z.string().min(1, { error: "is required (see docs/secrets.md)" }),
  /** Invite previews per minute per client address (each costs a signature check). */
  PREVIEW_RATE_PER_MINUTE: envInt(120, 1, 1_000_000),
  /** Short-link codes looked up per minute per client address (no guessing; docs/invites.md). */
  INVITE_CODE_RATE_PER_MINUTE: envInt(30, 1, 1_000_000),
  /** Sign-in attempts allowed per minute per e-mail address. */
  SIGNIN_RATE_PER_MINUTE: envInt(10, 1, 100_000),
  /** Sign-in attempts allowed per minute per client address (docs/security.md, "Client addresses"). */
  SIGNIN_CLIENT_RATE_PER_MINUTE: envInt(60, 1, 100_000),
  /** Sign-ups allowed per minute per e-mail address. */
  SIGNUP_RATE_PER_MINUTE: envInt(3, 1, 100_000),
  /** Sign-ups allowed per minute per client address. */
  SIGNUP_CLIENT_RATE_PER_MINUTE: envInt(10, 1, 100_000),
  /** `mesh login` starts per minute per client address (docs/cli.md). */
  DEVICE_LOGIN_RATE_PER_MINUTE: envInt(10, 1, 100_000),
  /** Device codes a signed-in user may look up or decide per minute (guessing is limited). */
  DEVICE_CODE_ATTEMPTS_PER_MINUTE: envInt(10, 1, 100_000),
  /** Browser joins (my.joinMesh) per minute per signed-in user: each checks an invite's signature (issue 41). */
  USER_JOIN_RATE_PER_MINUTE: envInt(10, 1, 100_000),
  /** Pipeline executions queued or running at once per API key or user (429 above it). */
  PIPELINE_MAX_ACTIVE_PER_PRINCIPAL: envInt(2, 1, 1_000),
  /** Outgoing mail (src/server/mail): SMTP_URL (unset: the development mailbox) and MAIL_FROM. */
  ...ZMailEnv.shape,
  /** Mails about one address or account per hour: reset requests, verification resends, address changes. */
  MAIL_PER_ADDRESS_PER_HOUR: envInt(5, 1, 10_000),
  /** Password-reset requests per minute per client address. */
  MAIL_CLIENT_RATE_PER_MINUTE: envInt(10, 1, 100_000),
  /** Invites a user may send by e-mail per hour. */
  INVITE_EMAILS_PER_HOUR: envInt(30, 1, 10_000),
});
export type TAppEnv = z.output<typeof ZAppEnv>;

let cached: TAppEnv | undefined;

/** The web app's configuration (throws a ConfigError naming the bad variable). */
export function appEnv(): TAppEnv {
  cached ??= parseConfig(ZAppEnv);
  return cached;
}

/** The origins state-changing requests with the session cookie may come from, besides the request's own. */
export function trustedOrigins(env: TAppEnv = appEnv()): string[] {
  return [
    ...new Set(
      [env.AUTH_URL, env.PUBLIC_BASE_URL].filter((u): u is string => Boolean(u)).map((u) => new URL(u).origin),
    ),
  ];
}

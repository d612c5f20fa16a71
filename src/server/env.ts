import { z } from "zod";
import { envInt, parseConfig, ZDatabaseUrl } from "./core/config";

/** Settings of the web app, validated on first use (not at import, so `next build` needs none). */
export const ZAppEnv = z.object({
  DATABASE_URL: ZDatabaseUrl,
  AUTH_SECRET: z.string().min(32, { error: "must be at least 32 characters" }),
  /** Comma-separated e-mail addresses of administrators. */
  ADMIN_EMAILS: z.string().default(""),
  /** Public address of the web app, used in links shown to people. */
  PUBLIC_BASE_URL: z.url({ error: "must be an absolute URL" }).default("http://localhost:3000"),
  /** Address of the broker that invites send peers to. */
  PUBLIC_BROKER_URL: z
    .string()
    .regex(/^wss?:\/\/[^|\s]+$/, { error: "must be a ws:// or wss:// URL" })
    .default("ws://localhost:4000"),
  /** Key ring sealing secrets at rest: "id:base64key,..." (the first seals, any opens); see docs/secrets.md. */
  SECRETS_KEYS: z.string().min(1, { error: "is required (see docs/secrets.md)" }),
  /** Invite previews per minute per client address (each costs a signature check). */
  PREVIEW_RATE_PER_MINUTE: envInt(120, 1, 1_000_000),
  /** Sign-in attempts allowed per minute per e-mail address. */
  SIGNIN_RATE_PER_MINUTE: envInt(10, 1, 100_000),
  /** Sign-in attempts allowed per minute per client address (first X-Forwarded-For hop). */
  SIGNIN_CLIENT_RATE_PER_MINUTE: envInt(60, 1, 100_000),
  /** Pipeline executions queued or running at once per API key or user (429 above it). */
  PIPELINE_MAX_ACTIVE_PER_PRINCIPAL: envInt(2, 1, 1_000),
});
export type TAppEnv = z.output<typeof ZAppEnv>;

let cached: TAppEnv | undefined;

/** The web app's configuration (throws a ConfigError naming the bad variable). */
export function appEnv(): TAppEnv {
  cached ??= parseConfig(ZAppEnv);
  return cached;
}

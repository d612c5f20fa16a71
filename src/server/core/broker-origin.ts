// Which brokers a web app vouches for (issue 41, attack 1): the command line sends its account token
// (`mdt_…`) only to a broker whose origin its own web app lists in the device whoami. One normalisation,
// used by the web app (the list it answers) and by the command line (the link's broker it checks).
import { z } from "zod";

/** A broker URL's origin (`ws://host:port`, `wss://host`; scheme and host lower-case, default port dropped), or undefined. */
export function brokerOrigin(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  if (parsed.protocol !== "ws:" && parsed.protocol !== "wss:") return undefined;
  if (parsed.username || parsed.password || !parsed.hostname) return undefined;
  return parsed.origin;
}

/**
 * TRUSTED_BROKER_URLS: comma-separated ws:// or wss:// URLs of other brokers of this deployment (default
 * none), as their origins. A value that is not a broker URL stops the process with the variable's name.
 */
export const ZTrustedBrokerUrls = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    const origins: string[] = [];
    for (const part of (raw ?? "").split(",")) {
      if (part.trim() === "") continue;
      const origin = brokerOrigin(part);
      if (!origin) {
        ctx.addIssue({ code: "custom", message: "must be comma-separated ws:// or wss:// URLs" });
        return z.NEVER;
      }
      origins.push(origin);
    }
    return origins;
  });

/** The origins a web app vouches for: its own PUBLIC_BROKER_URL's and TRUSTED_BROKER_URLS, once each. */
export function vouchedBrokerOrigins(publicBrokerUrl: string, trusted: readonly string[]): string[] {
  const own = brokerOrigin(publicBrokerUrl);
  return [...new Set([...(own ? [own] : []), ...trusted])];
}

/** Whether a broker URL's origin is among the vouched origins (each normalised again, so a list as written also works). */
export function isVouchedBroker(brokerUrl: string, vouched: readonly string[]): boolean {
  const origin = brokerOrigin(brokerUrl);
  if (!origin) return false;
  return vouched.some((v) => brokerOrigin(v) === origin);
}

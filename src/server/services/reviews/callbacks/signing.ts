import { createHmac, randomBytes } from "node:crypto";

// Standard Webhooks (https://www.standardwebhooks.com): secrets are "whsec_" + base64 of the key
// bytes; the signature is "v1," + base64(HMAC-SHA256(key, "<id>.<timestamp>.<body>")).

const SECRET = /^whsec_([A-Za-z0-9+/]+={0,2})$/;

/** True for a Standard Webhooks secret whose key is 24 to 64 bytes. */
export function isWebhookSecret(value: string): boolean {
  const m = SECRET.exec(value);
  if (!m?.[1]) return false;
  const n = Buffer.from(m[1], "base64").length;
  return n >= 24 && n <= 64;
}

/** A new signing secret (32 random bytes). */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** The headers of one signed delivery (timestamp in whole seconds). */
export function signedHeaders(
  secret: string,
  webhookId: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const signature = createHmac("sha256", key).update(`${webhookId}.${timestampSeconds}.${body}`).digest("base64");
  return {
    "webhook-id": webhookId,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": `v1,${signature}`,
  };
}

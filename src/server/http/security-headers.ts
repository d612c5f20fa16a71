import { randomBytes } from "node:crypto";

// The security headers of every answer of the web app, set in one place (the web server,
// src/web/server.ts; docs/security.md, "Headers"). Scripts run only with the nonce of their page
// (Next.js reads it from the request's Content-Security-Policy and puts it on its own scripts);
// 'strict-dynamic' lets those scripts load the app's chunks. Styles may be inline (charts and the
// framework set style attributes); nothing may frame the app.

/** A fresh nonce for one answer. */
export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

export interface SecurityHeaderOptions {
  nonce: string;
  /** Served over https (directly, or behind a trusted proxy that says so): adds HSTS. */
  https: boolean;
  /** Next.js's development server evaluates code and talks to its own socket: it needs more. */
  dev: boolean;
  /** The broker's address (PUBLIC_BROKER_URL): the chat page opens its WebSocket there. */
  brokerUrl?: string;
}

/** The origin of a ws:// or wss:// address, for connect-src (a path such as `/broker` is not part of it). */
function socketOrigin(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "ws:" || parsed.protocol === "wss:" ? `${parsed.protocol}//${parsed.host}` : undefined;
  } catch {
    return undefined;
  }
}

/** The Content-Security-Policy of an answer. */
export function contentSecurityPolicy({
  nonce,
  dev,
  brokerUrl,
}: Pick<SecurityHeaderOptions, "nonce" | "dev" | "brokerUrl">): string {
  const broker = socketOrigin(brokerUrl);
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${broker ? ` ${broker}` : ""}${dev ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    // Sign-in with an OAuth provider posts here, then goes on to the provider's page.
    "form-action 'self' https:",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Every security header of an answer, by name. */
export function securityHeaders(options: SecurityHeaderOptions): Record<string, string> {
  return {
    "content-security-policy": contentSecurityPolicy(options),
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "cross-origin-opener-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=()",
    ...(options.https ? { "strict-transport-security": "max-age=63072000; includeSubDomains" } : {}),
  };
}

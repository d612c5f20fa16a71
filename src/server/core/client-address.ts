/**
 * The client address of a request as the proxy in front reports it (first X-Forwarded-For hop, else
 * X-Real-IP, else "local"). Behind no proxy a client can choose it, so limits keyed by it must not be
 * the only protection.
 */
export function clientAddress(headers: Headers | undefined): string {
  const forwarded = headers?.get("x-forwarded-for")?.split(",")[0]?.trim();
  return forwarded || headers?.get("x-real-ip")?.trim() || "local";
}

import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Compares two secrets in constant time, whatever their lengths (both are hashed first, so neither the
 * length nor a common prefix shows in the time taken).
 */
export function secretsEqual(a: string, b: string): boolean {
  const digest = (v: string) => createHash("sha256").update(v, "utf8").digest();
  return timingSafeEqual(digest(a), digest(b));
}

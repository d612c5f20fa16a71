import { AppError } from "../core/errors";

// Bounded request bodies (docs/security.md, "Request bodies"): a body is read only up to the limit of
// its route. A declared Content-Length above it is refused before a byte is read (the web server does
// that for every route, src/web/server.ts); a streamed body is cut at the limit.

/** MAX_REQUEST_BYTES' default: 1 MiB. */
export const DEFAULT_MAX_REQUEST_BYTES = 1024 * 1024;

/** Routes whose bodies are small by nature get a smaller limit than MAX_REQUEST_BYTES. */
const SMALL_ROUTES: [prefix: string, bytes: number][] = [
  // Sign-in, sign-out and OAuth callbacks: a few form fields.
  ["/api/auth/", 64 * 1024],
  // Unauthenticated reads take no body at all.
  ["/api/public/", 16 * 1024],
  ["/api/health", 16 * 1024],
];

/** The body limit of a path: the route's own when it is smaller, else `max`. */
export function bodyLimitFor(pathname: string, max: number): number {
  for (const [prefix, bytes] of SMALL_ROUTES) if (pathname.startsWith(prefix)) return Math.min(bytes, max);
  return max;
}

/** The 413 every bounded reader throws. */
export function tooLarge(limit: number): AppError {
  return new AppError("PAYLOAD_TOO_LARGE", "body_too_large", { limit });
}

/**
 * Reads a request's body, but never more than `limit` bytes: a declared Content-Length above it is
 * refused without reading; a streamed body is cancelled as soon as it passes the limit.
 */
export async function readBoundedBody(req: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(req.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (!req.body) return new Uint8Array(new ArrayBuffer(0));
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(new ArrayBuffer(size));
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

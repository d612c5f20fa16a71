import { AppError } from "../core/errors";
import { bodyLimitFor, readBoundedBody } from "./body-limit";
import { csrfRefusal } from "./csrf";

export interface GuardOptions {
  /** MAX_REQUEST_BYTES. */
  maxBytes: number;
  /** The configured public origins (AUTH_URL, PUBLIC_BASE_URL); null turns the CSRF rule off (Auth.js has its own). */
  allowedOrigins: readonly string[] | null;
}

/** The one error body of the HTTP API, with the error's status. */
export function errorResponse(error: AppError): Response {
  return Response.json(error.toJSON(), { status: error.httpStatus, headers: { "cache-control": "no-store" } });
}

/**
 * The checks every API route runs before its handler (docs/security.md): the CSRF rule for requests
 * that carry the session cookie, then the body read once and never past the route's limit. Answers
 * the request to hand on (its body in memory, bounded) or the refusal to send.
 */
export async function guardRequest(
  req: Request,
  options: GuardOptions,
): Promise<{ request: Request } | { refusal: Response }> {
  if (options.allowedOrigins) {
    const refused = csrfRefusal(req, options.allowedOrigins);
    if (refused) return { refusal: errorResponse(refused) };
  }
  if (req.method === "GET" || req.method === "HEAD") return { request: req };
  try {
    const body = await readBoundedBody(req, bodyLimitFor(new URL(req.url).pathname, options.maxBytes));
    return {
      request: new Request(req.url, { method: req.method, headers: req.headers, body: body.byteLength ? body : null }),
    };
  } catch (error) {
    if (error instanceof AppError) return { refusal: errorResponse(error) };
    throw error;
  }
}

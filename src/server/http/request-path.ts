import { NextRequest } from "next/server";
import { REQUEST_PATH_HEADER } from "@/server/auth/callback-path";

/**
 * The request with the path and query it was made at in REQUEST_PATH_HEADER (a value the client sent
 * is replaced), so a layout can send a signed-out visitor to sign-in and back to that very page.
 */
export function withRequestPath(req: NextRequest): NextRequest {
  const headers = new Headers(req.headers);
  headers.set(REQUEST_PATH_HEADER, `${req.nextUrl.pathname}${req.nextUrl.search}`);
  return new NextRequest(req, { headers });
}

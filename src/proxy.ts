import createMiddleware from "next-intl/middleware";
import type { NextRequest } from "next/server";
import { routing } from "./i18n/routing";
import { withRequestPath } from "./server/http/request-path";

const intl = createMiddleware(routing);

/**
 * Locale negotiation (`/` and unprefixed paths redirect to the visitor's locale); the pages get the
 * path they were asked at, for sign-in to come back to (next-intl forwards the request's headers).
 */
export default function proxy(req: NextRequest) {
  // Only page loads go to sign-in and back; a POST (a server action) keeps its request and body as sent.
  return intl(req.method === "GET" || req.method === "HEAD" ? withRequestPath(req) : req);
}

export const config = {
  // Everything but API routes, Next internals and files with an extension.
  matcher: ["/((?!api|_next|_vercel|.*\\..*).*)"],
};

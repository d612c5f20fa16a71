import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { AppError } from "@/server/core/errors";
import { appEnv, trustedOrigins } from "@/server/env";
import { errorResponse, guardRequest } from "@/server/http/guard";
import { TRPC_MAX_BATCH_CALLS } from "@/trpc/batch-limit";
import { appRouter } from "./root";
import { createContext, responseMetaFromContext, type SessionUser } from "./trpc";

const ENDPOINT = "/api/trpc";

/**
 * The number of calls a request to /api/trpc asks for: tRPC names a batch's procedures in the path,
 * separated by commas (`/api/trpc/a,b,c?batch=1`). Read from the URL alone, before the body.
 */
export function trpcCallCount(url: URL): number {
  const path = url.pathname.startsWith(`${ENDPOINT}/`) ? url.pathname.slice(ENDPOINT.length + 1) : "";
  return path.split(",").length;
}

/**
 * The tRPC HTTP handler of /api/trpc as its route file serves it, with the session resolver given (the
 * route passes the Auth.js session; tests pass their user). Before tRPC reads anything: a batch longer
 * than TRPC_MAX_BATCH_CALLS is refused (413 `too_many_calls`: one request must not hold the process for
 * hundreds of calls, issue 41), then the CSRF rule and the bounded body (src/server/http/guard.ts).
 */
export function trpcRoute(resolveUser: () => Promise<SessionUser | null>) {
  return async (incoming: Request): Promise<Response> => {
    if (trpcCallCount(new URL(incoming.url)) > TRPC_MAX_BATCH_CALLS) {
      return errorResponse(new AppError("PAYLOAD_TOO_LARGE", "too_many_calls", { max_calls: TRPC_MAX_BATCH_CALLS }));
    }
    const guarded = await guardRequest(incoming, {
      maxBytes: appEnv().MAX_REQUEST_BYTES,
      allowedOrigins: trustedOrigins(),
    });
    if ("refusal" in guarded) return guarded.refusal;
    const req = guarded.request;
    return fetchRequestHandler({
      endpoint: ENDPOINT,
      req,
      router: appRouter,
      // tRPC's own bound too, in case a request names its calls some other way.
      maxBatchSize: TRPC_MAX_BATCH_CALLS,
      createContext: () => createContext({ resolveUser, headers: req.headers }),
      responseMeta: responseMetaFromContext,
    });
  };
}

import { TRPCError } from "@trpc/server";
import { AppError, appCodeOfTrpc, ERROR_MAP, type AppErrorCode } from "@/server/core/errors";
import { retryAfterHeader } from "@/server/core/token-bucket";
import type { ServiceContext } from "@/server/services/context";
import type { TApiScope } from "@/server/services/reviews/schemas";
import { engineContext, reviewEngineActor, type EngineActor } from "./engine-procedure";
import { createContext, type SessionUser } from "./trpc";

const codeOf = (trpc: string): AppErrorCode => appCodeOfTrpc(trpc) ?? "INTERNAL";

/** The product's error body for a refusal thrown before a route handler's first byte. */
function refusal(cause: unknown, headers: Headers): Response {
  if (cause instanceof AppError) {
    const retry = cause.details?.retry_after_seconds;
    if (typeof retry === "number") {
      for (const [name, value] of Object.entries(retryAfterHeader({ allowed: false, retryAfterMs: retry * 1000 })))
        headers.set(name, value);
    }
    return Response.json(cause.toJSON(), { status: cause.httpStatus, headers });
  }
  if (cause instanceof TRPCError) {
    const code = codeOf(cause.code);
    const details = cause.cause instanceof AppError ? cause.cause.details : undefined;
    return Response.json(
      {
        error: {
          code,
          message: code === "INTERNAL" ? "internal_error" : cause.message,
          ...(details ? { details } : {}),
        },
      },
      { status: ERROR_MAP[code].http, headers },
    );
  }
  throw cause;
}

/**
 * A route handler of the review engine outside tRPC (the streamed exports): the same authentication,
 * scope, rate limit and error body as the engine's procedures (reviewEngineActor), then `serve` with
 * the request's service context. The rate limit headers go on every answer. `resolveUser` reads the
 * session (the route passes getSessionUser).
 */
export async function engineRoute(
  req: Request,
  scope: TApiScope,
  resolveUser: () => Promise<SessionUser | null>,
  serve: (service: ServiceContext<EngineActor>) => Promise<Response>,
): Promise<Response> {
  const ctx = createContext({ resolveUser, headers: req.headers });
  const headers = () => new Headers([...ctx.responseHeaders]);
  try {
    const actor = await reviewEngineActor(ctx, scope);
    const res = await serve(engineContext(ctx, actor));
    for (const [name, value] of ctx.responseHeaders) res.headers.set(name, value);
    return res;
  } catch (cause) {
    return refusal(cause, headers());
  }
}

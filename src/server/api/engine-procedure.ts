import { TRPCError } from "@trpc/server";
import { AppError } from "@/server/core/errors";
import {
  administratorOf,
  SYSTEM,
  type Actor,
  type AdministratorActor,
  type ApiKeyActor,
} from "@/server/services/actor";
import { serviceContext, type ServiceContext } from "@/server/services/context";
import { authenticateApiKey } from "@/server/services/reviews/api-keys";
import { takeKeyToken } from "@/server/services/reviews/rate-limit";
import type { TApiScope } from "@/server/services/reviews/schemas";
import { publicProcedure, type Context } from "./trpc";

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Procedures of the review engine (Document 1): an API key in `Authorization: Bearer <key>` with the
 * scope (admin includes every scope), or a signed-in user from the pages (`session`: administrators
 * only, or every signed-in user). 401 for a missing, unknown, revoked or expired key; 429 with
 * Retry-After when the key's bucket is empty; 403 without the scope. Every answer to a key carries
 * RateLimit-Policy and RateLimit.
 */
export function apiKeyOrSessionProcedure(scope: TApiScope, session: "admin" | "user") {
  return publicProcedure.use(async ({ ctx, next }) =>
    next({ ctx: { ...ctx, actor: await engineActor(ctx, scope, session) } }),
  );
}

/** The rule of apiKeyOrSessionProcedure for a route handler outside tRPC (exports): the actor, or a TRPCError. */
export async function engineActor(ctx: Context, scope: TApiScope, session: "admin" | "user"): Promise<Actor> {
  const header = ctx.headers.get("authorization");
  if (header) {
    const presented = BEARER.exec(header)?.[1];
    // Authentication acts as the system: no actor exists before the key is known.
    const system = serviceContext(SYSTEM, { db: ctx.db });
    const key = presented ? await authenticateApiKey(system, { key: presented }) : null;
    if (!key) throw new TRPCError({ code: "UNAUTHORIZED", message: "invalid_api_key" });
    const limit = await takeKeyToken(system, { keyId: key.id, perMinute: key.rateLimitPerMinute });
    for (const [name, value] of Object.entries(limit.headers)) ctx.responseHeaders.set(name, value);
    if (!limit.allowed) throw new TRPCError({ code: "TOO_MANY_REQUESTS", message: "rate_limited" });
    if (!key.scopes.includes(scope) && !key.scopes.includes("admin")) {
      throw new TRPCError({
        code: "FORBIDDEN",
        message: "missing_scope",
        cause: new AppError("FORBIDDEN", "missing_scope", { required: scope }),
      });
    }
    return { kind: "apiKey", apiKeyId: key.id, scopes: key.scopes };
  }
  const user = await ctx.sessionUser();
  if (!user) throw new TRPCError({ code: "UNAUTHORIZED", message: "api_key_required" });
  if (session === "admin" && !user.isAdmin) throw new TRPCError({ code: "FORBIDDEN", message: "admin_only" });
  return { kind: "user", userId: user.id, isAdmin: user.isAdmin };
}

/** Who calls the review engine's services: an API key, or an administrator in the pages. */
export type EngineActor = ApiKeyActor | AdministratorActor;

/**
 * The review engine's actor for a request (an API key with the scope, or a signed-in administrator),
 * or a TRPCError: engineActor's rule, a session acting as the administrator it is.
 */
export async function reviewEngineActor(ctx: Context, scope: TApiScope): Promise<EngineActor> {
  const actor = await engineActor(ctx, scope, "admin");
  return actor.kind === "apiKey" ? actor : administratorOf(actor);
}

/** The request's service context for the review engine: its database, its actor, the process's clock and settings. */
export const engineContext = (ctx: Context, actor: EngineActor): ServiceContext<EngineActor> =>
  serviceContext(actor, { db: ctx.db });

/**
 * Jobs, batches, dashboards and the registry: an API key with the scope, or a signed-in administrator;
 * the procedure gets the request's service context as `ctx.service`, built once.
 */
export const engineProcedure = (scope: TApiScope) =>
  publicProcedure.use(async ({ ctx, next }) => {
    const actor = await reviewEngineActor(ctx, scope);
    return next({ ctx: { ...ctx, actor, service: engineContext(ctx, actor) } });
  });

/** The Idempotency-Key header of the request, if any. */
export const idempotencyKeyOf = (headers: Headers) => headers.get("idempotency-key") ?? undefined;

import { initTRPC, TRPCError } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import superjson from "superjson";
import { z, ZodError } from "zod";
import { db, type Db } from "@/server/core/db";
import { AppError, validationIssues } from "@/server/core/errors";
import { logger } from "@/server/core/logger";
import { VISITOR, type AdministratorActor, type UserActor } from "@/server/services/actor";
import { requestSettings, serviceContext } from "@/server/services/context";

/** The signed-in user as the API sees it (null when signed out). */
export interface SessionUser {
  id: string;
  email: string;
  name: string | null;
  isAdmin: boolean;
  /** The request's session row (its public id, never the cookie's secret); absent without a browser session. */
  sessionId?: string;
}

export interface Context {
  db: Db;
  /** The signed-in user, resolved on first use: public procedures never pay for a session lookup. */
  sessionUser: () => Promise<SessionUser | null>;
  headers: Headers;
  /** Headers a procedure wants on the HTTP answer (cache-control, x-cache); copied by responseMeta. */
  responseHeaders: Map<string, string>;
}

/**
 * Builds the context of one call. The caller gives the user (tests, server components that have it)
 * or a resolver (route handlers: reads the session cookie only when a procedure needs the user).
 */
export function createContext(opts: {
  user?: SessionUser | null;
  resolveUser?: () => Promise<SessionUser | null>;
  headers?: Headers;
  db?: Db;
}): Context {
  let pending: Promise<SessionUser | null> | undefined;
  const sessionUser = () => (pending ??= opts.resolveUser ? opts.resolveUser() : Promise.resolve(opts.user ?? null));
  return { db: opts.db ?? db(), sessionUser, headers: opts.headers ?? new Headers(), responseHeaders: new Map() };
}

/** Procedures whose answers may be kept by shared caches (they set their own cache-control). */
const CACHEABLE = new Set(["public.stats", "public.invitePreview"]);

/**
 * responseMeta for the HTTP handlers: the headers the procedures asked for. The answer may be cached
 * only when every procedure of the call (a tRPC batch may mix several) is a cacheable public one and
 * none failed; any other answer is `private, no-store`, whatever a public procedure in it asked for.
 */
export function responseMetaFromContext({
  ctx,
  paths,
  errors,
}: {
  ctx?: Context;
  paths?: readonly string[];
  errors?: readonly unknown[];
}): {
  headers: Record<string, string>;
} {
  const headers = Object.fromEntries(ctx?.responseHeaders ?? []);
  const cacheable =
    (paths ?? []).length > 0 && (paths ?? []).every((p) => CACHEABLE.has(p)) && (errors ?? []).length === 0;
  if (!cacheable || !headers["cache-control"]) {
    headers["cache-control"] = "private, no-store";
    delete headers["x-cache"];
  }
  return { headers };
}

const t = initTRPC
  .context<Context>()
  .meta<OpenApiMeta>()
  .create({
    transformer: superjson,
    errorFormatter({ shape, error }) {
      const cause = error.cause;
      return {
        ...shape,
        // An unexpected failure keeps its details in the log, not in the answer.
        message: error.code === "INTERNAL_SERVER_ERROR" ? "internal_error" : shape.message,
        data: {
          ...shape.data,
          // zod errors come back flattened: { formErrors: string[], fieldErrors: { field: string[] } }
          zodError: cause instanceof ZodError ? z.flattenError(cause) : null,
          appCode: cause instanceof AppError ? cause.code : null,
          // One shape for every validation error (docs/mesh-api.md, "Visibility and errors"): { issues: [{ path, message }] }.
          details:
            cause instanceof AppError
              ? (cause.details ?? null)
              : cause instanceof ZodError
                ? { issues: validationIssues(cause.issues) }
                : null,
        },
      };
    },
  });

/** Turns AppError from services into the mapped TRPCError, and logs unexpected failures. */
const errorMapping = t.middleware(async ({ next, path, type }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    if (cause instanceof AppError) {
      throw new TRPCError({ code: cause.trpcCode, message: cause.message, cause });
    }
    if (result.error.code === "INTERNAL_SERVER_ERROR") {
      logger().error({ err: result.error, path, type }, "trpc procedure failed");
    }
  }
  return result;
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Anyone, signed in or not; ctx.service is the services' context of a visitor. */
export const publicProcedure = t.procedure
  .use(errorMapping)
  .use(({ ctx, next }) =>
    next({ ctx: { service: serviceContext(VISITOR, { db: ctx.db, settings: requestSettings(ctx.headers) }) } }),
  );

/** A signed-in user (UNAUTHORIZED otherwise); ctx.actor is the user actor for services. */
export const protectedProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const user = await ctx.sessionUser();
  if (!user) throw new TRPCError({ code: "UNAUTHORIZED", message: "sign_in_required" });
  const actor: UserActor = { kind: "user", userId: user.id, isAdmin: user.isAdmin };
  return next({
    ctx: {
      ...ctx,
      user,
      actor,
      service: serviceContext(actor, { db: ctx.db, settings: requestSettings(ctx.headers) }),
    },
  });
});

/** An administrator (FORBIDDEN for other signed-in users); ctx.service acts as the administrator. */
export const adminProcedure = protectedProcedure.use(({ ctx, next }) => {
  if (!ctx.user.isAdmin) throw new TRPCError({ code: "FORBIDDEN", message: "admin_only" });
  const admin: AdministratorActor = { kind: "administrator", userId: ctx.user.id };
  return next({ ctx: { service: serviceContext(admin, { db: ctx.db, settings: requestSettings(ctx.headers) }) } });
});

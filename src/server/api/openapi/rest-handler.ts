import { TRPCError } from "@trpc/server";
import { createOpenApiNodeHttpHandler, forEachOpenApiProcedure, type OpenApiProcedureRecord } from "trpc-to-openapi";
import { appCodeOfTrpc, validationIssues } from "@/server/core/errors";
import { registerSubRoutes, templateOfOpenApiPath } from "@/server/http/route-templates";

type ZodLikeIssue = { path?: PropertyKey[]; message: string };
import { appRouter } from "../root";
import { responseMetaFromContext, type Context } from "../trpc";

/**
 * Rewrites an error answer of the REST handler into the product's one error body,
 * `{ error: { code, message, details? } }`; server errors never expose their internal message.
 */
export async function normaliseRestError(res: Response): Promise<Response> {
  if (res.ok) return res;
  let body: { code?: string; message?: string; issues?: unknown; data?: { details?: Record<string, unknown> | null } } =
    {};
  try {
    body = (await res.clone().json()) as typeof body;
  } catch {
    // not JSON: keep the generic body below
  }
  const code =
    appCodeOfTrpc(body.code ?? "") ??
    (res.status === 404 ? "NOT_FOUND" : res.status >= 500 ? "INTERNAL" : "BAD_REQUEST");
  const message = res.status >= 500 ? "internal_error" : (body.message ?? code.toLowerCase());
  // Input validation issues, else the AppError's own details (e.g. the limit of a 429), as tRPC answers them.
  const details = Array.isArray(body.issues)
    ? { issues: validationIssues(body.issues as ZodLikeIssue[]) }
    : (body.data?.details ?? undefined);
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  return Response.json({ error: { code, message, ...(details ? { details } : {}) } }, { status: res.status, headers });
}

/** The REST paths as route templates (`/api/jobs/[job_id]`), from the procedures' OpenAPI paths. */
export function restRouteTemplates(): string[] {
  const templates: string[] = [];
  forEachOpenApiProcedure(appRouter._def.procedures as OpenApiProcedureRecord, ({ meta }) => {
    templates.push(templateOfOpenApiPath("/api", meta.openapi.path));
  });
  return templates;
}

// The web server's request metrics label a REST call with its path's template, not `/api/[...rest]`
// (src/server/http/route-templates.ts): registered when Next.js loads this handler.
registerSubRoutes("/api/[...rest]", restRouteTemplates());

const CONTEXT = Symbol("context");
type ContextFactory = () => Promise<Context> | Context;
type BridgedRequest = Request & { [CONTEXT]: ContextFactory };

// The library's fetch adapter builds its procedure table (and outside production the whole OpenAPI
// document) again on every request; this bridge builds the node handler once per process.
let nodeHandler: ReturnType<typeof createOpenApiNodeHttpHandler> | undefined;
function handler() {
  nodeHandler ??= createOpenApiNodeHttpHandler({
    router: appRouter,
    createContext: ({ req }: { req: unknown }) => (req as BridgedRequest)[CONTEXT](),
    responseMeta: responseMetaFromContext,
  } as unknown as Parameters<typeof createOpenApiNodeHttpHandler>[0]);
  return nodeHandler;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads the body as the node handler expects it: parsed JSON, or {} for a body-less POST. */
async function parsedBody(req: Request): Promise<{ ok: true; value: unknown } | { ok: false; cause: unknown }> {
  if (req.method === "GET" || req.method === "HEAD") return { ok: true, value: undefined };
  const text = await req.text();
  if (!text.trim()) return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (cause) {
    return { ok: false, cause };
  }
}

/** Serves one REST request from the tRPC procedures (paths under /api, see /api/openapi.json). */
export async function handleRest(req: Request, createContext: ContextFactory): Promise<Response> {
  const url = new URL(req.url);
  url.pathname = url.pathname.replace(/^\/api(?=\/)/, "");
  const body = await parsedBody(req);
  // DELETE takes its input from the query string (the OpenAPI rule the library follows); a JSON body's
  // flat fields (`{"ban": true}`) are read as query parameters the URL does not already carry.
  if (req.method === "DELETE" && body.ok && isPlainObject(body.value)) {
    for (const [key, value] of Object.entries(body.value)) {
      if (
        (typeof value === "string" || typeof value === "number" || typeof value === "boolean") &&
        !url.searchParams.has(key)
      )
        url.searchParams.set(key, String(value));
    }
  }
  // A body-less POST (`curl -X POST .../archive`) is read as an empty JSON object.
  const headers = new Headers(req.headers);
  if (body.ok && body.value !== undefined) headers.set("content-type", "application/json");
  const proxy = new Proxy(req, {
    get(target, prop) {
      if (prop === CONTEXT) return createContext;
      if (prop === "headers") return headers;
      if (prop === "url") return url.toString();
      if (prop === "body") {
        if (!body.ok) throw new TRPCError({ code: "PARSE_ERROR", message: "invalid_json", cause: body.cause });
        return body.value;
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  const res = await new Promise<Response>((resolve) => {
    const out = new Headers();
    let status = 200;
    const sink = {
      setHeader: (key: string, value: string | string[]) => {
        if (typeof value === "string") out.set(key, value);
        else for (const v of value) out.append(key, v);
      },
      get statusCode() {
        return status;
      },
      set statusCode(code: number) {
        status = code;
      },
      end: (text: string) => resolve(new Response(text, { status, headers: out })),
    };
    void (handler() as unknown as (rq: unknown, rs: unknown) => Promise<void>)(proxy, sink);
  });
  return normaliseRestError(res);
}

import { createOpenApiFetchHandler } from "trpc-to-openapi";
import { ERROR_MAP, type AppErrorCode } from "@/server/core/errors";
import { appRouter } from "../root";
import { responseMetaFromContext, type Context } from "../trpc";

const byTrpcCode = new Map<string, AppErrorCode>(
  Object.entries(ERROR_MAP).map(([code, mapping]) => [mapping.trpc, code as AppErrorCode]),
);

/**
 * Rewrites an error answer of the REST handler into the product's one error body,
 * `{ error: { code, message, details? } }`; server errors never expose their internal message.
 */
export async function normaliseRestError(res: Response): Promise<Response> {
  if (res.ok) return res;
  let body: { code?: string; message?: string; issues?: unknown } = {};
  try {
    body = (await res.clone().json()) as typeof body;
  } catch {
    // not JSON: keep the generic body below
  }
  const code = byTrpcCode.get(body.code ?? "") ?? (res.status === 404 ? "NOT_FOUND" : res.status >= 500 ? "INTERNAL" : "BAD_REQUEST");
  const message = res.status >= 500 ? "internal_error" : (body.message ?? code.toLowerCase());
  const details = body.issues ? { issues: body.issues } : undefined;
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  return Response.json({ error: { code, message, ...(details ? { details } : {}) } }, { status: res.status, headers });
}

/** A body-less POST (`curl -X POST .../archive`) is read as an empty JSON object. */
async function withJsonBody(req: Request): Promise<Request> {
  if (!["POST", "PATCH", "PUT"].includes(req.method) || req.headers.get("content-type")) return req;
  const text = await req.text();
  const headers = new Headers(req.headers);
  headers.set("content-type", "application/json");
  return new Request(req.url, { method: req.method, headers, body: text.trim() ? text : "{}" });
}

/** Serves one REST request from the tRPC procedures (paths under /api, see /api/openapi.json). */
export async function handleRest(req: Request, createContext: () => Promise<Context> | Context): Promise<Response> {
  const res = await createOpenApiFetchHandler({
    endpoint: "/api",
    router: appRouter,
    req: await withJsonBody(req),
    createContext,
    responseMeta: responseMetaFromContext,
  });
  return normaliseRestError(res);
}

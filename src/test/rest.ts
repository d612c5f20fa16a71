// The REST handler exactly as the /api route serves it, with the session user given directly.
import { handleRest } from "@/server/api/openapi/rest-handler";
import { createContext, type SessionUser } from "@/server/api/trpc";
import type { Db } from "@/server/core/db";

export async function restAs(db: Db, user: SessionUser | null, method: string, path: string, body?: unknown) {
  const req = new Request(`http://test/api${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const res = await handleRest(req, () => createContext({ user, db, headers: req.headers }));
  return {
    status: res.status,
    json: (await res.json()) as Record<string, unknown> & { error?: { code: string; message: string } },
  };
}

/** A REST call with an API key (Authorization: Bearer), through the handler the /api route serves. */
export async function restWithKey(db: Db, key: string, method: string, path: string, body?: unknown) {
  const req = new Request(`http://test/api${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const res = await handleRest(req, () => createContext({ db, headers: req.headers }));
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

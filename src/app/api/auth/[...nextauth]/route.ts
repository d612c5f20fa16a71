import { NextRequest } from "next/server";
import { handlers } from "@/server/auth";
import { appEnv } from "@/server/env";
import { guardRequest } from "@/server/http/guard";

export const dynamic = "force-dynamic";

export const { GET } = handlers;

/** Auth.js's POSTs (sign-in, sign-out, callbacks) with the bounded body; Auth.js checks its own CSRF token. */
export async function POST(incoming: NextRequest): Promise<Response> {
  const guarded = await guardRequest(incoming, { maxBytes: appEnv().MAX_REQUEST_BYTES, allowedOrigins: null });
  if ("refusal" in guarded) return guarded.refusal;
  const req = guarded.request;
  return handlers.POST(new NextRequest(req.url, { method: req.method, headers: req.headers, body: req.body }));
}

import { handleRest } from "@/server/api/openapi/rest-handler";
import { createContext } from "@/server/api/trpc";
import { getSessionUser } from "@/server/auth/session-user";
import { appEnv, trustedOrigins } from "@/server/env";
import { guardRequest } from "@/server/http/guard";

export const dynamic = "force-dynamic";

// REST paths of Document 3 under /api (GET /api/my/meshes, GET /api/public/stats, ...), served by the
// same procedures as tRPC; the document is at /api/openapi.json. The CSRF rule and the bounded body
// (src/server/http/guard.ts) come first.
const handler = async (incoming: Request) => {
  const guarded = await guardRequest(incoming, {
    maxBytes: appEnv().MAX_REQUEST_BYTES,
    allowedOrigins: trustedOrigins(),
  });
  if ("refusal" in guarded) return guarded.refusal;
  const req = guarded.request;
  return handleRest(req, () => createContext({ resolveUser: getSessionUser, headers: req.headers }));
};

export { handler as GET, handler as POST, handler as PATCH, handler as PUT, handler as DELETE };

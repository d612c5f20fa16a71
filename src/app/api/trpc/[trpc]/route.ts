import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "@/server/api/root";
import { createContext, responseMetaFromContext } from "@/server/api/trpc";
import { getSessionUser } from "@/server/auth/session-user";
import { appEnv, trustedOrigins } from "@/server/env";
import { guardRequest } from "@/server/http/guard";

export const dynamic = "force-dynamic";

// The CSRF rule and the bounded body (src/server/http/guard.ts) come before tRPC reads anything.
const handler = async (incoming: Request) => {
  const guarded = await guardRequest(incoming, {
    maxBytes: appEnv().MAX_REQUEST_BYTES,
    allowedOrigins: trustedOrigins(),
  });
  if ("refusal" in guarded) return guarded.refusal;
  const req = guarded.request;
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: () => createContext({ resolveUser: getSessionUser, headers: req.headers }),
    responseMeta: responseMetaFromContext,
  });
};

export { handler as GET, handler as POST };

import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "@/server/api/root";
import { createContext, responseMetaFromContext } from "@/server/api/trpc";
import { getSessionUser } from "@/server/auth/session-user";

export const dynamic = "force-dynamic";

const handler = (req: Request) =>
  fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: () => createContext({ resolveUser: getSessionUser, headers: req.headers }),
    responseMeta: responseMetaFromContext,
  });

export { handler as GET, handler as POST };

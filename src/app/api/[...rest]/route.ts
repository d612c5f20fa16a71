import { handleRest } from "@/server/api/openapi/rest-handler";
import { createContext } from "@/server/api/trpc";
import { getSessionUser } from "@/server/auth/session-user";

export const dynamic = "force-dynamic";

// REST paths of Document 3 under /api (GET /api/my/meshes, GET /api/public/stats, ...), served by the
// same procedures as tRPC; the document is at /api/openapi.json.
const handler = (req: Request) =>
  handleRest(req, () => createContext({ resolveUser: getSessionUser, headers: req.headers }));

export { handler as GET, handler as POST, handler as PATCH, handler as PUT, handler as DELETE };

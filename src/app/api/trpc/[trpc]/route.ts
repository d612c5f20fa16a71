import { trpcRoute } from "@/server/api/trpc-route";
import { getSessionUser } from "@/server/auth/session-user";

export const dynamic = "force-dynamic";

const handler = trpcRoute(getSessionUser);

export { handler as GET, handler as POST };

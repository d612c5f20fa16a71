import type { SessionUser } from "@/server/api/trpc";
import { auth } from "./index";

/** The signed-in user of the current request, or null. */
export async function getSessionUser(): Promise<SessionUser | null> {
  const session = await auth();
  const user = session?.user;
  if (!user?.id) return null;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    isAdmin: user.isAdmin,
    ...(session?.sessionId ? { sessionId: session.sessionId } : {}),
  };
}

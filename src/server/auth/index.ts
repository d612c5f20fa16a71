import { PrismaAdapter } from "@auth/prisma-adapter";
import { headers } from "next/headers";
import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { db } from "@/server/core/db";
import { VISITOR } from "@/server/services/actor";
import { serviceContext } from "@/server/services/context";
import { appEnv } from "@/server/env";
import { authenticate } from "@/server/services/users/authenticate";
import { isAdministrator } from "./admin";
import { oauthProviders } from "./providers";
import { clientAddress } from "@/server/core/client-address";
import { AppError } from "@/server/core/errors";
import { logger } from "@/server/core/logger";
import { signInLimiter } from "./attempt-limit";
import { closeSession, findSessionUser, openSession, SESSION_MAX_AGE_S, type SessionOrigin } from "./sessions";

class RateLimitedSignIn extends CredentialsSignin {
  override code = "rate_limited";
}

/** The browser and address a sign-in came from, for the user's session list (settings page). */
async function signInOrigin(): Promise<SessionOrigin> {
  try {
    const h = await headers();
    return { userAgent: h.get("user-agent"), ipAddress: clientAddress(h) };
  } catch {
    return {}; // outside a request scope: nothing to record
  }
}

declare module "next-auth" {
  interface Session {
    user: { id: string; email: string; name: string | null; image?: string | null; isAdmin: boolean };
    /** The session row's id (its public handle, never the cookie's secret): marks "this device" in the session list. */
    sessionId?: string;
  }
}

export const { handlers, auth, signIn, signOut } = NextAuth(() => ({
  // The adapter stores users and accounts of OAuth sign-ins; sessions are our own rows (sessions.ts).
  adapter: PrismaAdapter(db() as unknown as Parameters<typeof PrismaAdapter>[0]),
  secret: appEnv().AUTH_SECRET,
  trustHost: true,
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S },
  pages: { signIn: "/en/sign-in", error: "/en/sign-in" },
  // One JSON line per event like the rest of the product; a refused sign-in is an expected outcome
  // (no stack, no e-mail address), anything else an error with its type.
  logger: {
    error(error) {
      const type = (error as { type?: string }).type ?? error.name;
      if (error instanceof CredentialsSignin || type === "CredentialsSignin") {
        logger().info({ event: "sign_in_refused", code: (error as CredentialsSignin).code }, "sign-in refused");
      } else {
        logger().error({ event: "auth_error", type, err: error }, "auth error");
      }
    },
    warn(code) {
      logger().warn({ event: "auth_warning", code }, "auth warning");
    },
    debug() {},
  },
  providers: [
    Credentials({
      credentials: { email: {}, password: {} },
      async authorize(credentials, request) {
        const email = typeof credentials.email === "string" ? credentials.email : "";
        if (!(await signInLimiter().attempt(email, clientAddress(request?.headers)))) throw new RateLimitedSignIn();
        const user = await authenticate(serviceContext(VISITOR), credentials).catch((error: unknown) => {
          // Too many password hashes at once (src/server/core/password.ts): answered as a rate limit.
          if (error instanceof AppError && error.code === "TOO_MANY_REQUESTS") throw new RateLimitedSignIn();
          throw error;
        });
        return user ? { id: user.id, email: user.email, name: user.name } : null;
      },
    }),
    ...oauthProviders(),
  ],
  callbacks: {
    async jwt({ token, user }) {
      if (user?.id) {
        // Sign-in: open a server-side session and carry only its secret in the cookie.
        return { sid: await openSession(db(), user.id, await signInOrigin()) };
      }
      const sid = typeof token.sid === "string" ? token.sid : null;
      const live = sid ? await findSessionUser(db(), sid) : null;
      if (!live) return null; // closed or expired: Auth.js clears the cookie
      return {
        sid,
        ssid: live.sessionId,
        uid: live.id,
        email: live.email,
        name: live.name,
        picture: live.image,
        // Read from the database on every request, like the rest: confirming the address, or changing it, counts at once.
        adm: isAdministrator(live, appEnv().ADMIN_EMAILS),
      };
    },
    session({ session, token }) {
      const email = typeof token.email === "string" ? token.email : "";
      session.user = {
        ...session.user,
        id: typeof token.uid === "string" ? token.uid : "",
        email,
        name: typeof token.name === "string" ? token.name : null,
        isAdmin: token.adm === true,
      };
      if (typeof token.ssid === "string") session.sessionId = token.ssid;
      return session;
    },
  },
  events: {
    async signOut(message) {
      const sid = "token" in message && typeof message.token?.sid === "string" ? message.token.sid : null;
      if (sid) await closeSession(db(), sid);
    },
  },
}));

import "server-only";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { headers } from "next/headers";
import { cache } from "react";
import { appRouter, createCaller } from "@/server/api/root";
import { createContext } from "@/server/api/trpc";
import { getSessionUser } from "@/server/auth/session-user";
import { makeQueryClient } from "./query-client";

const context = cache(async () => createContext({ resolveUser: getSessionUser, headers: await headers() }));

/** One QueryClient per request for server components. */
export const getQueryClient = cache(makeQueryClient);

/** tRPC query options for prefetching in server components. */
export const trpc = createTRPCOptionsProxy({ ctx: context, router: appRouter, queryClient: getQueryClient });

/** Direct server-side caller for server components. */
export async function serverCaller() {
  return createCaller(await context());
}

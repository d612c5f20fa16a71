import "server-only";
import { headers } from "next/headers";
import { REQUEST_PATH_HEADER, returnPath } from "@/server/auth/callback-path";

/** The page this request asked for (set by src/proxy.ts), for sign-in to come back to; else `fallback`. */
export async function requestedPath(fallback: string): Promise<string> {
  return returnPath((await headers()).get(REQUEST_PATH_HEADER), fallback);
}

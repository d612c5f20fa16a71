import "server-only";
import { TRPCError } from "@trpc/server";
import { notFound } from "next/navigation";
import { cache } from "react";
import { serverCaller } from "./server";

/**
 * A mesh the signed-in user may see, or null when it is not visible, absent or not even an id.
 * Cached per request: a page's title and the page ask once.
 */
export const findMyMesh = cache(async (meshId: string) => {
  try {
    return await (await serverCaller()).my.mesh({ meshId });
  } catch (error) {
    if (error instanceof TRPCError && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST")) return null;
    throw error;
  }
});

/**
 * A mesh the signed-in user may see, for the mesh pages. Not visible, absent or not even an id: the
 * same not-found page (HTTP 404) for all three.
 */
export async function loadMyMesh(meshId: string) {
  return (await findMyMesh(meshId)) ?? notFound();
}

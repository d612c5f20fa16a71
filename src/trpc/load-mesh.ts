import "server-only";
import { TRPCError } from "@trpc/server";
import { notFound } from "next/navigation";
import { serverCaller } from "./server";

/**
 * A mesh the signed-in user may see, for the mesh pages. Not visible, absent or not even an id: the
 * same not-found page for all three.
 */
export async function loadMyMesh(meshId: string) {
  try {
    return await (await serverCaller()).my.mesh({ meshId });
  } catch (error) {
    if (error instanceof TRPCError && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST")) notFound();
    throw error;
  }
}

import { z } from "zod";
import { ZHomeEngineOut, ZHomeMeshesInput, ZHomeMeshesOut } from "@/server/services/home/home-overview.schema";
import { listHomeMeshes } from "@/server/services/home/list-home-meshes";
import { recentEngineActivity } from "@/server/services/home/recent-engine-activity";
import { adminProcedure, createTRPCRouter, protectedProcedure } from "../trpc";

/**
 * The home page's live overview (tRPC only; the REST API has the full lists): the signed-in user's
 * meshes with their presence, and for administrators the newest jobs and pipeline runs.
 */
export const homeRouter = createTRPCRouter({
  meshes: protectedProcedure
    .input(ZHomeMeshesInput)
    .output(ZHomeMeshesOut)
    .query(({ ctx, input }) => listHomeMeshes(ctx, ctx.actor, input)),
  engine: adminProcedure
    .input(z.void())
    .output(ZHomeEngineOut)
    .query(({ ctx }) => recentEngineActivity(ctx, ctx.actor)),
});

import { getProfile, updateProfile } from "@/server/services/users/get-profile";
import { ZUpdateProfileInput } from "@/server/services/users/schemas";
import { createTRPCRouter, protectedProcedure } from "../trpc";

/** The signed-in user's own data (Document 3, router my). */
export const myRouter = createTRPCRouter({
  profile: protectedProcedure.query(({ ctx }) => getProfile(ctx.db, ctx.actor)),
  updateProfile: protectedProcedure
    .input(ZUpdateProfileInput)
    .mutation(({ ctx, input }) => updateProfile(ctx.db, ctx.actor, input)),
});

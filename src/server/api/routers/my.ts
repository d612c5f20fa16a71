import { exportMyData } from "@/server/services/export/export-my-data";
import { createInvite } from "@/server/services/invites/create-invite";
import { listMyInvites } from "@/server/services/invites/list-my-invites";
import { revokeInvite } from "@/server/services/invites/revoke-invite";
import { meshDeps } from "@/server/services/context";
import { archiveMesh } from "@/server/services/meshes/archive-mesh";
import { createMesh } from "@/server/services/meshes/create-mesh";
import { getMeshDetail } from "@/server/services/meshes/get-mesh-detail";
import { getMeshStream } from "@/server/services/meshes/get-stream";
import { leaveMesh } from "@/server/services/meshes/leave-mesh";
import { listMyMeshes } from "@/server/services/meshes/list-my-meshes";
import { ZCreateInviteInput, ZCreateMeshInput, ZInviteIdInput, ZMeshIdInput, ZPageInput } from "@/server/services/meshes/schemas";
import { getProfile, updateProfile } from "@/server/services/users/get-profile";
import { ZUpdateProfileInput } from "@/server/services/users/schemas";
import { createTRPCRouter, protectedProcedure } from "../trpc";

/** The signed-in user's own data (Document 3, router my); visibility is checked inside every query. */
export const myRouter = createTRPCRouter({
  profile: protectedProcedure.query(({ ctx }) => getProfile(ctx.db, ctx.actor)),
  updateProfile: protectedProcedure
    .input(ZUpdateProfileInput)
    .mutation(({ ctx, input }) => updateProfile(ctx.db, ctx.actor, input)),

  meshes: protectedProcedure.input(ZPageInput).query(({ ctx, input }) => listMyMeshes(ctx, ctx.actor, input)),
  createMesh: protectedProcedure
    .input(ZCreateMeshInput)
    .mutation(({ ctx, input }) => createMesh(meshDeps(ctx.db), ctx.actor, input)),
  mesh: protectedProcedure.input(ZMeshIdInput).query(({ ctx, input }) => getMeshDetail(ctx, ctx.actor, input)),
  createInvite: protectedProcedure
    .input(ZCreateInviteInput)
    .mutation(({ ctx, input }) => createInvite(meshDeps(ctx.db), ctx.actor, input)),
  revokeInvite: protectedProcedure.input(ZInviteIdInput).mutation(({ ctx, input }) => revokeInvite(ctx, ctx.actor, input)),
  archiveMesh: protectedProcedure.input(ZMeshIdInput).mutation(({ ctx, input }) => archiveMesh(ctx, ctx.actor, input)),
  leaveMesh: protectedProcedure.input(ZMeshIdInput).mutation(({ ctx, input }) => leaveMesh(ctx, ctx.actor, input)),
  invites: protectedProcedure.query(({ ctx }) => listMyInvites(meshDeps(ctx.db), ctx.actor)),
  stream: protectedProcedure.input(ZMeshIdInput).query(({ ctx, input }) => getMeshStream(ctx, ctx.actor, input)),
  export: protectedProcedure.query(({ ctx }) => exportMyData(ctx, ctx.actor)),
});

import { z } from "zod";
import { exportMyData } from "@/server/services/export/export-my-data";
import { createInvite } from "@/server/services/invites/create-invite";
import { ZMeshInvitesInput } from "@/server/services/invites/list-mesh-invites.schema";
import { listMeshInvites } from "@/server/services/invites/list-mesh-invites";
import { listMyInvites } from "@/server/services/invites/list-my-invites";
import { revokeInvite } from "@/server/services/invites/revoke-invite";
import { archiveMesh } from "@/server/services/meshes/archive-mesh";
import { createMesh } from "@/server/services/meshes/create-mesh";
import { getMeshDetail } from "@/server/services/meshes/get-mesh-detail";
import { getMeshStream } from "@/server/services/meshes/get-stream";
import { joinAsUser } from "@/server/services/join/join-as-user";
import { ZUserJoinInput } from "@/server/services/join/join-as-user.schema";
import { leaveMesh } from "@/server/services/meshes/leave-mesh";
import { listMyMeshes } from "@/server/services/meshes/list-my-meshes";
import {
  ZChangeRoleInput,
  ZMeshBansInput,
  ZUnbanUserInput,
  ZRemoveMemberInput,
  ZSetGroupsInput,
  ZUnbanInput,
} from "@/server/services/meshes/members.schema";
import {
  changeMemberRole,
  listMeshBans,
  removeMember,
  setMemberGroups,
  unbanPeer,
  unbanUser,
} from "@/server/services/meshes/members";
import { ZCreateMeshInput } from "@/server/services/meshes/create-mesh.schema";
import { ZCreateInviteInput } from "@/server/services/invites/create-invite.schema";
import { ZInviteIdInput } from "@/server/services/invites/revoke-invite.schema";
import { ZMeshIdInput, ZPageInput } from "@/server/services/meshes/schemas";
import { getProfile, updateProfile } from "@/server/services/users/get-profile";
import { ZUpdateProfileInput } from "@/server/services/users/get-profile.schema";
import { ZDecideDeviceLoginInput, ZUserCodeInput } from "@/server/services/devices/device-login.schema";
import { decideDeviceLogin, describeDeviceLogin } from "@/server/services/devices/device-login";
import { appEnv } from "@/server/env";
import { signInLimiter } from "@/server/auth/attempt-limit";
import { clientAddress } from "@/server/core/client-address";
import { AppError } from "@/server/core/errors";
import { lazyLimiter, takeOrThrow } from "../rate-limit";
import { createTRPCRouter, protectedProcedure } from "../trpc";
import { accountProcedures } from "./my-account";
import { mailProcedures } from "./my-mail";
import { chatProcedures } from "./my-chat";
import { ZHomeMeshesInput, ZHomeMeshesOut } from "@/server/services/home/home-overview.schema";
import { listHomeMeshes } from "@/server/services/home/list-home-meshes";
import { ZDeviceDecidedOut, ZDeviceLoginOut } from "../outputs/devices";
import { ZExportOut } from "../outputs/export";
import { ZCreatedInviteOut, ZMeshInvitesOut, ZMyInvitesOut, ZRevokedInviteOut } from "../outputs/invites";
import {
  ZArchivedOut,
  ZGroupsSetOut,
  ZCreatedMeshOut,
  ZLeftOut,
  ZMemberRemovedOut,
  ZMeshBansOut,
  ZUnbannedUserOut,
  ZMeshDetailOut,
  ZMeshListOut,
  ZRoleChangedOut,
  ZStreamOut,
  ZUnbannedOut,
  ZUserJoinedOut,
} from "../outputs/meshes";
import { ZProfileOut, ZProfileUpdatedOut } from "../outputs/users";
import {
  ZMeshReviewBotOut,
  ZReviewBotAddedOut,
  ZReviewBotMeshInput,
  ZReviewBotRemovedOut,
} from "@/server/services/review-bots/review-bots.schema";
import { addReviewBot } from "@/server/services/review-bots/add-review-bot";
import { getReviewBot } from "@/server/services/review-bots/get-review-bot";
import { removeReviewBot } from "@/server/services/review-bots/remove-review-bot";

const rest = (method: "GET" | "POST" | "PATCH" | "DELETE", path: `/${string}`, summary: string) => ({
  openapi: { method, path, summary, tags: ["my"], protect: true },
});
const none = z.void();
// Looking up or deciding user codes: limited per user, so codes cannot be guessed.
const deviceCodeBucket = lazyLimiter("device-code", () => appEnv().DEVICE_CODE_ATTEMPTS_PER_MINUTE);
// Joining in the browser: limited per user, so one account cannot keep the process checking signatures.
const userJoinBucket = lazyLimiter("user-join", () => appEnv().USER_JOIN_RATE_PER_MINUTE);

/** The signed-in user's own data (Document 3, router my); visibility is checked inside every query. */
export const myRouter = createTRPCRouter({
  profile: protectedProcedure
    .meta(rest("GET", "/my/profile", "The signed-in user's profile"))
    .input(none)
    .output(ZProfileOut)
    .query(({ ctx }) => getProfile(ctx.service)),
  updateProfile: protectedProcedure
    .meta(rest("PATCH", "/my/profile", "Change the display name"))
    .input(ZUpdateProfileInput)
    .output(ZProfileUpdatedOut)
    .mutation(({ ctx, input }) => updateProfile(ctx.service, input)),
  ...accountProcedures,
  ...mailProcedures,
  ...chatProcedures,
  meshes: protectedProcedure
    .meta(rest("GET", "/my/meshes", "Meshes I own or belong to"))
    .input(ZPageInput)
    .output(ZMeshListOut)
    .query(({ ctx, input }) => listMyMeshes(ctx.service, input)),
  deviceLogin: protectedProcedure
    .meta(rest("GET", "/my/device/{userCode}", "A pending command-line login, by its user code"))
    .input(ZUserCodeInput)
    .output(ZDeviceLoginOut)
    .query(async ({ ctx, input }) => {
      await takeOrThrow(deviceCodeBucket(), ctx.actor.userId, ctx.responseHeaders);
      return describeDeviceLogin(ctx.service, input, { sessionId: ctx.user.sessionId });
    }),
  decideDeviceLogin: protectedProcedure
    .meta(
      rest(
        "POST",
        "/my/device/{userCode}",
        "Approve or deny a command-line login (approving wants the password unless signed in just now)",
      ),
    )
    .input(ZDecideDeviceLoginInput)
    .output(ZDeviceDecidedOut)
    .mutation(async ({ ctx, input }) => {
      await takeOrThrow(deviceCodeBucket(), ctx.actor.userId, ctx.responseHeaders);
      // Password guesses draw from the sign-in limiter's buckets (per e-mail and client), as a password change's do.
      if (input.approve && input.password !== undefined)
        if (!(await signInLimiter().attempt(ctx.user.email, clientAddress(ctx.headers))))
          throw new AppError("TOO_MANY_REQUESTS", "rate_limited");
      return decideDeviceLogin(ctx.service, input, { sessionId: ctx.user.sessionId });
    }),
  joinMesh: protectedProcedure
    .meta(rest("POST", "/my/join", "Join a mesh with an invite, as the signed-in user"))
    .input(ZUserJoinInput)
    .output(ZUserJoinedOut)
    .mutation(async ({ ctx, input }) => {
      await takeOrThrow(userJoinBucket(), ctx.actor.userId, ctx.responseHeaders);
      return joinAsUser(ctx.service, input);
    }),
  createMesh: protectedProcedure
    .meta(rest("POST", "/my/meshes", "Create a mesh"))
    .input(ZCreateMeshInput)
    .output(ZCreatedMeshOut)
    .mutation(({ ctx, input }) => createMesh(ctx.service, input)),
  mesh: protectedProcedure
    .meta(rest("GET", "/my/meshes/{meshId}", "Mesh, members and invites"))
    .input(ZMeshIdInput)
    .output(ZMeshDetailOut)
    .query(({ ctx, input }) => getMeshDetail(ctx.service, input)),
  createInvite: protectedProcedure
    .meta(rest("POST", "/my/meshes/{meshId}/invites", "Issue a signed invite"))
    .input(ZCreateInviteInput)
    .output(ZCreatedInviteOut)
    .mutation(({ ctx, input }) => createInvite(ctx.service, input)),
  meshInvites: protectedProcedure
    .meta(
      rest(
        "GET",
        "/my/meshes/{meshId}/invites",
        "Usable invites of a mesh, with their links (owner: all; mesh admin: their own)",
      ),
    )
    .input(ZMeshInvitesInput)
    .output(ZMeshInvitesOut)
    .query(({ ctx, input }) => listMeshInvites(ctx.service, input)),
  revokeInvite: protectedProcedure
    .meta(rest("POST", "/my/invites/{inviteId}/revoke", "Revoke an invite"))
    .input(ZInviteIdInput)
    .output(ZRevokedInviteOut)
    .mutation(({ ctx, input }) => revokeInvite(ctx.service, input)),
  archiveMesh: protectedProcedure
    .meta(rest("POST", "/my/meshes/{meshId}/archive", "Archive a mesh (owner only)"))
    .input(ZMeshIdInput)
    .output(ZArchivedOut)
    .mutation(({ ctx, input }) => archiveMesh(ctx.service, input)),
  leaveMesh: protectedProcedure
    .meta(rest("POST", "/my/meshes/{meshId}/leave", "Leave a mesh"))
    .input(ZMeshIdInput)
    .output(ZLeftOut)
    .mutation(({ ctx, input }) => leaveMesh(ctx.service, input)),
  removeMember: protectedProcedure
    .meta(
      rest(
        "DELETE",
        "/my/meshes/{meshId}/members/{memberId}",
        "Remove a member (owner, or mesh admin for members and observers); ban=true keeps its key and person out, revokeInvites=true revokes the invites the person issued",
      ),
    )
    .input(ZRemoveMemberInput)
    .output(ZMemberRemovedOut)
    .mutation(({ ctx, input }) => removeMember(ctx.service, input)),
  changeMemberRole: protectedProcedure
    .meta(rest("PATCH", "/my/meshes/{meshId}/members/{memberId}", "Change a member's role"))
    .input(ZChangeRoleInput)
    .output(ZRoleChangedOut)
    .mutation(({ ctx, input }) => changeMemberRole(ctx.service, input)),
  setMemberGroups: protectedProcedure
    .meta(rest("POST", "/my/meshes/{meshId}/members/{memberId}/groups", "Set a member's groups (owner or admin)"))
    .input(ZSetGroupsInput)
    .output(ZGroupsSetOut)
    .mutation(({ ctx, input }) => setMemberGroups(ctx.service, input)),
  meshBans: protectedProcedure
    .meta(rest("GET", "/my/meshes/{meshId}/bans", "Banned peer keys of a mesh"))
    .input(ZMeshBansInput)
    .output(ZMeshBansOut)
    .query(({ ctx, input }) => listMeshBans(ctx.service, input)),
  unbanPeer: protectedProcedure
    .meta(rest("DELETE", "/my/meshes/{meshId}/bans/{peerPubkey}", "Lift the ban of a peer key"))
    .input(ZUnbanInput)
    .output(ZUnbannedOut)
    .mutation(({ ctx, input }) => unbanPeer(ctx.service, input)),
  unbanUser: protectedProcedure
    .meta(rest("DELETE", "/my/meshes/{meshId}/banned-users/{userId}", "Lift the ban of a person and their keys"))
    .input(ZUnbanUserInput)
    .output(ZUnbannedUserOut)
    .mutation(({ ctx, input }) => unbanUser(ctx.service, input)),
  reviewBot: protectedProcedure
    .meta(rest("GET", "/my/meshes/{meshId}/review-bot", "The mesh's review bot, and whether I may add or remove it"))
    .input(ZReviewBotMeshInput)
    .output(ZMeshReviewBotOut)
    .query(({ ctx, input }) => getReviewBot(ctx.service, input)),
  addReviewBot: protectedProcedure
    .meta(rest("POST", "/my/meshes/{meshId}/review-bot", "Add the mesh's review bot (owner or mesh admin)"))
    .input(ZReviewBotMeshInput)
    .output(ZReviewBotAddedOut)
    .mutation(({ ctx, input }) => addReviewBot(ctx.service, input)),
  removeReviewBot: protectedProcedure
    .meta(rest("DELETE", "/my/meshes/{meshId}/review-bot", "Remove the mesh's review bot (owner or mesh admin)"))
    .input(ZReviewBotMeshInput)
    .output(ZReviewBotRemovedOut)
    .mutation(({ ctx, input }) => removeReviewBot(ctx.service, input)),
  invites: protectedProcedure
    .meta(rest("GET", "/my/invites", "Invites I issued"))
    .input(none)
    .output(ZMyInvitesOut)
    .query(({ ctx }) => listMyInvites(ctx.service)),
  stream: protectedProcedure
    .meta(rest("GET", "/my/meshes/{meshId}/stream", "Live presences, members, envelopes and audit events"))
    .input(ZMeshIdInput)
    .output(ZStreamOut)
    .query(({ ctx, input }) => getMeshStream(ctx.service, input)),
  export: protectedProcedure
    .meta(rest("GET", "/my/export", "Export my data as one JSON bundle"))
    .input(none)
    .output(ZExportOut)
    .query(({ ctx }) => exportMyData(ctx.service)),
  // The home page's overview (GET /my/meshes has the full list).
  homeMeshes: protectedProcedure
    .meta(rest("GET", "/my/home/meshes", "My most active meshes with their online counts (the home page's overview)"))
    .input(ZHomeMeshesInput)
    .output(ZHomeMeshesOut)
    .query(({ ctx, input }) => listHomeMeshes(ctx.service, input)),
});

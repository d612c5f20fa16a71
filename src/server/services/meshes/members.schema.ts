import { z } from "zod";
import { ZGroups } from "../join/groups";
import { ASSIGNABLE_ROLES } from "./member-roles";
import { ZMeshId } from "./schemas";

// Inputs of member control (members.ts).

const ZMemberId = z.uuid({ error: "invalid_member_id" });
/** `ban` arrives as a JSON boolean, or as text in a DELETE's query string. */
const ZFlag = z.preprocess((v) => (v === "true" ? true : v === "false" ? false : v), z.boolean());

export const ZRemoveMemberInput = z.object({
  meshId: ZMeshId,
  memberId: ZMemberId,
  /** Also keep the member's key, and the person behind it, out (members-bans.ts). */
  ban: ZFlag.optional(),
  /** Also revoke the invites the person issued in the mesh (the removal dialog's box, on by default there). */
  revokeInvites: ZFlag.optional(),
});
export type TRemoveMemberInput = z.output<typeof ZRemoveMemberInput>;
export const ZChangeRoleInput = z.object({ meshId: ZMeshId, memberId: ZMemberId, role: z.enum(ASSIGNABLE_ROLES) });
export type TChangeRoleInput = z.output<typeof ZChangeRoleInput>;
export const ZSetGroupsInput = z.object({ meshId: ZMeshId, memberId: ZMemberId, groups: ZGroups });
export type TSetGroupsInput = z.output<typeof ZSetGroupsInput>;
export const ZUnbanInput = z.object({ meshId: ZMeshId, peerPubkey: z.string().min(1).max(64) });
export type TUnbanInput = z.output<typeof ZUnbanInput>;
export const ZUnbanUserInput = z.object({ meshId: ZMeshId, userId: z.string().min(1).max(200) });
export type TUnbanUserInput = z.output<typeof ZUnbanUserInput>;
export const ZMeshBansInput = z.object({ meshId: ZMeshId });

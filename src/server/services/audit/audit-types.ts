/** Every kind of event the audit log records (the admin filter, the live page's sentences, the output schema). */
export const AUDIT_TYPES = [
  "mesh_created",
  "mesh_archived",
  "invite_created",
  "invite_revoked",
  "member_joined",
  "member_left",
  "message_sent",
  "status_changed",
  "member_removed",
  "member_banned",
  "member_unbanned",
  "role_changed",
] as const;

import type { AppErrorCode } from "@/server/core/errors";

/**
 * The error codes (ERROR_MAP) an invite is refused with, by the broker's join, the web join and the
 * preview alike, in the order they are checked: codec, exact-token lookup, expiry, revocation, use cap,
 * archived mesh.
 */
export const INVITE_REFUSALS = [
  "invite_malformed",
  "invite_bad_signature",
  "invite_not_found",
  "invite_expired",
  "invite_revoked",
  "invite_exhausted",
  "mesh_archived",
] as const satisfies readonly AppErrorCode[];
export type InviteRefusal = (typeof INVITE_REFUSALS)[number];

/** A refusal as the preview names it: the code without `invite_` (`malformed`, `bad_signature`, `mesh_archived`, ...). */
export type PreviewReason<C extends InviteRefusal = InviteRefusal> = C extends `invite_${infer R}` ? R : C;

/** The preview's name of a refusal (the mesh web API spec's failure reasons). */
export function previewReason<C extends InviteRefusal>(code: C): PreviewReason<C> {
  return (code.startsWith("invite_") ? code.slice("invite_".length) : code) as PreviewReason<C>;
}

/** The preview's failure reasons, in the order of INVITE_REFUSALS (the output schema's enum). */
export const PREVIEW_REASONS = INVITE_REFUSALS.map(previewReason) as [PreviewReason, ...PreviewReason[]];

import { z } from "zod";
import { isBase64Url } from "@/server/core/encoding";

/**
 * Body of the broker's `POST /session` (docs/protocol.md, "Session members"), signed with the parent's
 * key like a status hook: `memberId` is the parent (the machine's member), the keys are the new session's.
 */
export const ZCreateSessionInput = z.strictObject({
  /** Keeps the body of another signed route from ever matching this one. */
  action: z.literal("session"),
  meshId: z.uuid(),
  memberId: z.uuid(),
  peerPubkey: z.string().refine((v) => isBase64Url(v, 32), { error: "peer_pubkey_invalid" }),
  boxPubkey: z.string().refine((v) => isBase64Url(v, 32), { error: "box_pubkey_invalid" }),
  displayName: z.string().trim().min(1).max(80),
  /** `v1.<ts>.<signature>` by the new peer key over this request (session-proof.ts). */
  proof: z.string().max(200),
});
export type TCreateSessionInput = z.output<typeof ZCreateSessionInput>;

/** The broker's limits a creation is checked against (broker/config.ts). */
export interface SessionLimits {
  /** Live session members a parent may hold (SESSION_MEMBERS_PER_PARENT). */
  perParent: number;
  /** A session member without a connection for this long may be ended to make room for a new one. */
  evictAfterMs: number;
}

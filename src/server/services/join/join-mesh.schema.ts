import { z } from "zod";
import { isBase64Url } from "@/server/core/encoding";
import { ZGroups } from "./groups";

/** Body of the broker's `POST /join` (docs/protocol.md, "Join"). */
export const ZJoinInput = z.object({
  token: z.string().max(1_000_000),
  /** The peer's own ed25519 public key (base64url, 32 bytes); its secret never leaves the peer. */
  peerPubkey: z.string().refine((v) => isBase64Url(v, 32), { error: "peer_pubkey_invalid" }),
  /** The peer's X25519 public key, which other peers encrypt direct messages to. */
  boxPubkey: z
    .string()
    .refine((v) => isBase64Url(v, 32), { error: "box_pubkey_invalid" })
    .optional(),
  displayName: z.string().trim().min(1).max(80),
  /** Groups the peer joins (a message can go to `@group`); an owner or admin may change them later. */
  groups: ZGroups.optional(),
  /** `v1.<ts>.<signature>` by the peer key over this request (join-proof.ts); needed to change a member's box key. */
  proof: z.string().max(200).optional(),
  /** The token of `mesh login` (docs/cli.md): links the member to that user. */
  accountToken: z.string().max(200).optional(),
});
/** A join request as the edge parsed it (the service does not parse it again). */
export type TJoinInput = z.output<typeof ZJoinInput>;

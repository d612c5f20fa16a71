// A signed invite made locally, for the client's unit tests (no database, no broker).
import { toBase64Url } from "../../src/server/core/encoding";
import {
  createInviteToken,
  formatInviteExpiry,
  generateOwnerKeyPair,
  generateRootKey,
} from "../../src/server/core/invites";

/** A token signed by a fresh owner key; `expiresInMs` may be negative for an expired invite. */
export function localInvite(opts: { brokerUrl?: string; expiresInMs?: number; slug?: string } = {}) {
  const owner = generateOwnerKeyPair();
  return createInviteToken(
    {
      v: 1,
      mesh_id: "0b5e6f7a-1c2d-4e3f-8a9b-0c1d2e3f4a5b",
      mesh_slug: opts.slug ?? "team",
      broker_url: opts.brokerUrl ?? "wss://broker.example.test",
      expires_at: formatInviteExpiry(new Date(Date.now() + (opts.expiresInMs ?? 3_600_000))),
      mesh_root_key: toBase64Url(generateRootKey()),
      role: "member",
      owner_pubkey: toBase64Url(owner.publicKey),
    },
    owner.secretKey,
  );
}

// The verification marks of `mesh verify --mark` as the commands read them (docs/protocol.md, "Safety
// numbers"): kept per mesh in the config directory (broker/protocol/safety-number.ts compares them).
import type { TPeerInfo } from "../protocol/frames";
import { verificationAmong, type MemberPublicKeys, type VerificationMark } from "../protocol/safety-number";
import { ConfigError } from "../client/config-store";
import { CliFailure, printable, storeOf, type CliIo } from "./io";

/** A peer's public keys as the broker lists them; a broker that leaves the signing key out cannot be checked. */
export function keysOf(peer: TPeerInfo): MemberPublicKeys {
  if (!peer.peerPubkey)
    throw new CliFailure(
      `the broker did not send the signing key of ${printable(peer.displayName)} (a broker older than safety numbers)`,
      "NO_PEER_KEY",
    );
  return { peerPubkey: peer.peerPubkey, boxPubkey: peer.boxPubkey };
}

/** The marks of one mesh; a damaged file is a failure, never an empty list. */
export function verificationMarks(io: CliIo, meshId: string): VerificationMark[] {
  try {
    return storeOf(io).verificationStore(meshId).load();
  } catch (error) {
    if (error instanceof ConfigError) throw new CliFailure(error.message);
    throw error;
  }
}

/** Replaces the marks of one mesh (atomically, mode 0600). */
export function saveMarks(io: CliIo, meshId: string, marks: readonly VerificationMark[]): void {
  storeOf(io).verificationStore(meshId).save(marks);
}

/**
 * Refuses a direct message to a peer marked verified whose keys changed since (it would be sealed to
 * keys nobody compared): the user compares the safety number again and marks it (`mesh verify --mark`).
 */
export function refuseChangedRecipients(
  marks: readonly VerificationMark[],
  peers: readonly TPeerInfo[],
  recipients: readonly string[],
): void {
  const changed = peers.filter((p) => recipients.includes(p.memberId) && verificationAmong(marks, p) === "changed");
  if (changed.length === 0) return;
  const names = changed.map((p) => printable(p.displayName)).join(", ");
  throw new CliFailure(
    `not sent: the keys of ${names} changed since you verified them; compare the safety number again ` +
      `(mesh verify ${changed[0]?.memberId}) and mark it if it matches`,
    "KEY_CHANGED",
  );
}

import type { TPeerInfo } from "../../protocol/frames";
import {
  formatSafetyNumber,
  markVerified,
  safetyNumber,
  verificationState,
  withMark,
  withoutMark,
  type MemberPublicKeys,
  type VerificationState,
} from "../../protocol/safety-number";
import { meshKeysOf, type TMeshConfig } from "../../client";
import { CliFailure, EXIT, MESH_OPTIONS, parseCommandArgs, printable, timeoutOf, UsageError, type CliIo } from "../io";
import { resolvePeers, selectMesh, withClient } from "../session";
import { keysOf, saveMarks, verificationMarks } from "../verification";

const OPTIONS = { ...MESH_OPTIONS, mark: { type: "boolean" }, unmark: { type: "boolean" } } as const;

/**
 * `mesh verify <peer>`: the safety number of this machine's member and that peer (docs/protocol.md,
 * "Safety numbers"); `--mark` remembers that the two people compared it, `--unmark` forgets it. Exit
 * code 3 when the peer was marked verified and its keys changed since (and it is not marked again).
 */
export async function verifyCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, OPTIONS);
  const [name, ...rest] = positionals;
  if (name === undefined || rest.length > 0) throw new UsageError("name one peer: mesh verify <peer>");
  if (values.mark && values.unmark) throw new UsageError("--mark and --unmark exclude each other");
  if (/^@/.test(name.trim())) throw new UsageError("a safety number is for one peer, not a group");
  const config = selectMesh(io, values.mesh);
  const marks = verificationMarks(io, config.meshId);
  const peers = await withClient(io, config, timeoutOf(values.timeout), (client) => client.peers());
  const peer = peerNamed(name, peers, config);
  const mine = ownKeys(config);
  const self = peers.find((p) => p.memberId === config.memberId);
  // The broker's copy of our own keys is what every other member's number is made of.
  if (self?.peerPubkey && (self.peerPubkey !== mine.peerPubkey || self.boxPubkey !== mine.boxPubkey))
    io.err("WARNING: the broker lists your own member with other keys than this machine holds");
  const theirs = keysOf(peer);
  const digits = safetyNumber(mine, theirs);

  const again = printable(
    `mesh verify ${shellWord(name)}${values.mesh ? ` --mesh ${shellWord(values.mesh)}` : ""} --mark`,
  );
  const previous = marks.find((m) => m.memberId === peer.memberId);
  const before = verificationState(previous, theirs);
  let after: VerificationState = before;
  let mark = previous;
  // A changed key is reported (exit code 3) unless this run settles it by marking again or forgetting.
  const warn = before === "changed" && !values.mark && !values.unmark;
  if (values.mark) {
    mark = markVerified(peer.memberId, theirs);
    saveMarks(io, config.meshId, withMark(marks, mark));
    after = "verified";
  } else if (values.unmark) {
    saveMarks(io, config.meshId, withoutMark(marks, peer.memberId));
    mark = undefined;
    after = "unverified";
  }

  if (values.json) {
    io.out(
      JSON.stringify({
        meshId: config.meshId,
        memberId: peer.memberId,
        displayName: peer.displayName,
        safetyNumber: digits,
        verification: after,
        markedAt: mark?.markedAt ?? null,
        ...(values.mark || values.unmark ? { was: before } : {}),
      }),
    );
  } else {
    const them = printable(peer.displayName);
    io.out(`Safety number of ${printable(config.displayName)} (you) and ${them} (member ${peer.memberId}):`);
    io.out("");
    for (const line of formatSafetyNumber(digits).split("\n")) io.out(`  ${line}`);
    io.out("");
    if (values.mark) io.out(`Marked ${them} as verified: mesh peers shows it, and warns if their keys change.`);
    else if (values.unmark) io.out(`${them} is no longer marked as verified.`);
    else if (after === "verified") io.out(`Verified on ${previous?.markedAt ?? "?"}: these are the keys you compared.`);
    else if (after === "unverified")
      io.out(
        `Not verified. Compare these digits with ${them} out of band (in person, on a call): they run ` +
          `${printable(`mesh verify ${shellWord(config.displayName)}`)} and must see the same. If they do: ${again}`,
      );
  }
  if (warn)
    io.err(
      `WARNING: ${printable(peer.displayName)}'s keys changed since you verified them on ${previous?.markedAt ?? "?"}. ` +
        `Compare the new number with them again before you trust what they send; then mark them again: ${again}`,
    );
  return warn ? EXIT.keyChanged : EXIT.ok;
}

/** The one other peer a name stands for (display name, member id or an 8-character prefix). */
function peerNamed(name: string, peers: readonly TPeerInfo[], config: TMeshConfig): TPeerInfo {
  const wanted = name.trim();
  if (
    wanted === config.memberId ||
    (wanted.toLowerCase() === config.displayName.toLowerCase() &&
      !peers.some((p) => p.memberId !== config.memberId && p.displayName.toLowerCase() === wanted.toLowerCase()))
  )
    throw new UsageError("a safety number is made of two members: name a peer other than yourself");
  const [memberId] = resolvePeers([wanted], peers, config.memberId);
  const peer = peers.find((p) => p.memberId === memberId);
  if (!peer) throw new CliFailure(`no peer called ${wanted} in this mesh`, "NOT_FOUND");
  return peer;
}

/** This machine's public keys in the mesh, derived from its secrets. */
function ownKeys(config: TMeshConfig): MemberPublicKeys {
  const keys = meshKeysOf(config);
  return { peerPubkey: keys.signPublicKey, boxPubkey: keys.boxPublicKey };
}

/** A word as a POSIX shell reads it back (quoted when it holds anything but plain characters). */
function shellWord(word: string): string {
  return /^[\w.@:/-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

// The member of one assistant session (docs/cli.md, "One identity per session"): made by the machine's
// member with a signed POST /session, with key pairs of the session's own, stored under the session's
// key; ended with a signed POST /leave when the session's MCP server stops.
import path from "node:path";
import { z } from "zod";
import { fromBase64Url, toBase64Url } from "../../src/server/core/encoding";
import { signSessionProof } from "../../src/server/services/sessions/session-proof";
import { meshKeysOf, type ConfigStore, type TMeshConfig } from "./config-store";
import type { EpochKeyStore } from "./epoch-keys";
import { HookError, postSigned } from "./hook";
import { generatePeerSecrets, peerKeyPairs, type PeerSecrets } from "./mesh-crypto";
import { readSession, removeSession, sessionDir, writeSession, type SessionRecord } from "./session-store";

export const SESSION_PATH = "/session";

const ZSessionAnswer = z.object({
  meshId: z.string(),
  meshSlug: z.string(),
  memberId: z.string(),
  parentMemberId: z.string(),
  role: z.string(),
  displayName: z.string(),
  rejoined: z.boolean(),
});

/** Where the session runs: its key, its project folder, its assistant's process and this process. */
export interface SessionPlace {
  sessionKey: string;
  project: string;
  assistantPid: number;
  serverPid: number;
}

/** The name peers see: the project folder's name and the session's short id (`api·3f9c2a1b`). */
export function sessionDisplayName(project: string, sessionKey: string): string {
  const folder = (path.basename(project) || "session").replace(/[\u0000-\u001f\u007f]/g, "").slice(0, 60);
  const short = sessionKey
    .replace(/^ppid-/, "p")
    .replace(/-/g, "")
    .slice(0, 8);
  return `${folder}·${short}`;
}

/** A session's member as a mesh config (the parent's mesh, root key and broker; the session's keys and member). */
export function sessionConfig(parent: TMeshConfig, record: SessionRecord): TMeshConfig {
  return {
    ...parent,
    memberId: record.memberId,
    role: record.role,
    displayName: record.displayName,
    signSeed: record.signSeed,
    boxSecretKey: record.boxSecretKey,
    joinedAt: record.createdAt,
  };
}

/**
 * The session's epoch keys: its own file (`sessions/<meshId>/<key>.keys`) for what it learns, read
 * together with the machine member's (the same mesh's keys), so a new session reads at once what the
 * machine already holds. Written only to its own file: two processes never rewrite one file.
 */
export function sessionEpochKeys(store: ConfigStore, meshId: string, sessionKey: string): EpochKeyStore {
  const machine = store.epochKeyStore(meshId);
  const own = store.epochKeyStoreAt(path.join(sessionDir(store.home, meshId), `${sessionKey}.keys`));
  return {
    load: () => {
      const mine = own.load();
      const known = new Set(mine.map((k) => `${k.epoch}|${k.keyId}`));
      return [...mine, ...machine.load().filter((k) => !known.has(`${k.epoch}|${k.keyId}`))];
    },
    save: (keys) => own.save(keys),
  };
}

/**
 * The member of this session: the stored one when the broker still knows it for this parent (an MCP
 * server started again in the same session), else a new one with new keys. Throws HookError with the
 * broker's code when it refuses (404 from a broker without sessions, `session_cap`, 429, …).
 */
export async function startSession(
  parent: TMeshConfig,
  home: string,
  place: SessionPlace,
): Promise<{ record: SessionRecord; rejoined: boolean }> {
  const stored = readSession(home, parent.meshId, place.sessionKey);
  const reusable = stored && stored.parentMemberId === parent.memberId ? stored : undefined;
  const first = reusable
    ? { signSeed: fromBase64Url(reusable.signSeed, 32), boxSecretKey: fromBase64Url(reusable.boxSecretKey, 32) }
    : generatePeerSecrets();
  const displayName = reusable?.displayName ?? sessionDisplayName(place.project, place.sessionKey);
  let made;
  try {
    made = await requestSession(parent, first, displayName);
  } catch (error) {
    // Keys the broker no longer takes (the session member ended meanwhile): a new member with new keys.
    if (!reusable || !(error instanceof HookError) || (error.code !== "key_in_use" && error.status !== 401))
      throw error;
    made = await requestSession(parent, generatePeerSecrets(), displayName);
  }
  const record: SessionRecord = {
    version: 1,
    sessionKey: place.sessionKey,
    meshId: parent.meshId,
    meshSlug: made.answer.meshSlug,
    memberId: made.answer.memberId,
    displayName: made.answer.displayName,
    role: made.answer.role,
    parentMemberId: parent.memberId,
    parentDisplayName: parent.displayName,
    brokerUrl: parent.brokerUrl,
    signSeed: toBase64Url(made.secrets.signSeed),
    boxSecretKey: toBase64Url(made.secrets.boxSecretKey),
    project: place.project,
    assistantPid: place.assistantPid,
    serverPid: place.serverPid,
    createdAt: made.answer.rejoined && reusable ? reusable.createdAt : new Date().toISOString(),
  };
  writeSession(home, record);
  return { record, rejoined: made.answer.rejoined };
}

async function requestSession(parent: TMeshConfig, secrets: PeerSecrets, displayName: string) {
  const pairs = peerKeyPairs(secrets);
  const peerPubkey = toBase64Url(pairs.sign.publicKey);
  const boxPubkey = toBase64Url(pairs.box.publicKey);
  const proof = signSessionProof({
    meshId: parent.meshId,
    parentMemberId: parent.memberId,
    peerPubkey,
    boxPubkey,
    secretKey: pairs.sign.secretKey,
  });
  const body = JSON.stringify({
    action: "session",
    meshId: parent.meshId,
    memberId: parent.memberId,
    peerPubkey,
    boxPubkey,
    displayName,
    proof,
  });
  const res = await postSigned(parent, SESSION_PATH, body);
  const answer = ZSessionAnswer.safeParse(res.json);
  if (!answer.success || answer.data.meshId !== parent.meshId || answer.data.parentMemberId !== parent.memberId)
    throw new HookError("BAD_ANSWER", "the broker's answer to the session is not what protocol v1 says", res.status);
  return { answer: answer.data, secrets };
}

/**
 * Ends the session's member at the broker (POST /leave signed with the session's key) and forgets its
 * files; a member the broker no longer knows is forgotten too. The machine's member stays.
 */
export async function endSession(parent: TMeshConfig, home: string, record: SessionRecord): Promise<void> {
  const config = sessionConfig(parent, record);
  const body = JSON.stringify({ action: "leave", meshId: config.meshId, memberId: config.memberId });
  try {
    await postSigned(config, "/leave", body);
  } catch (error) {
    if (!(error instanceof HookError) || (error.status !== 404 && error.status !== 401)) throw error;
  }
  removeSession(home, record.meshId, record.sessionKey);
}

/** The session's keys decoded (for a caller that signs as the session). */
export const sessionKeysOf = (parent: TMeshConfig, record: SessionRecord) => meshKeysOf(sessionConfig(parent, record));

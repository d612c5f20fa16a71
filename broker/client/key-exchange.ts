// How a peer gets and gives the whole-mesh keys of epochs above 0 (docs/protocol.md, "Key epochs"):
// the first sender of an epoch creates a key and gives it, in direct messages sealed to each live
// member's box key, before its message; a member that holds a message under a key it lacks asks the
// sender; a member coming online later gets the keys this peer created for the current epoch. Portable:
// the command line and the chat page share it.
import type { TMessageFrame, TMessagePriority, TPeerInfo, TTargetSpec } from "../protocol/frames";
import { MAX_TARGET_PEERS } from "../protocol/frames";
import type { SentReceipt } from "./client-types";
import { EpochKeyRing, type EpochKeyStore, type TEpochKey } from "./epoch-keys";
import {
  encodeJsonPlaintext,
  epochOf,
  plaintextJson,
  sealDirect,
  ZMeshKeyPlaintext,
  ZMeshKeyRequestPlaintext,
  type DirectRecipient,
} from "./payload-crypto";
import { fromBase64Url, toBase64Url } from "../../src/server/core/encoding";

/** Messages under an epoch key not held yet wait this long for it (unacked), then count as undecryptable. */
const HOLD_MS = 60_000;
const MAX_HELD = 200;

/** What the key exchange needs of the client that owns it. */
export interface KeyExchangeHost {
  readonly memberId: string;
  readonly boxSecretKey: Uint8Array;
  /** The mesh's key epoch as the broker last said. */
  epoch(): number;
  /** The live members (from the broker, now). */
  peers(): Promise<TPeerInfo[]>;
  boxKeysOf(ids: readonly string[]): Promise<DirectRecipient[]>;
  sendSealed(to: TTargetSpec, ciphertext: string, priority: TMessagePriority): Promise<SentReceipt>;
  /** A held message whose key came: to be read again. */
  redeliver(frame: TMessageFrame): void;
  /** A held message whose key never came: acked and reported as undecryptable. */
  giveUp(frame: TMessageFrame): void;
  keyReceived(event: { epoch: number; keyId: string; from: string }): void;
}

export class KeyExchange {
  readonly ring: EpochKeyRing;
  private readonly ensuring = new Map<number, Promise<TEpochKey>>();
  /** Keys this peer created, with the members it has given them to (it gives them to newcomers too). */
  private readonly shared = new Map<string, { epoch: number; members: Set<string> }>();
  private readonly held = new Map<string, { frame: TMessageFrame; timer: ReturnType<typeof setTimeout> }>();
  private readonly asked = new Set<string>();

  constructor(
    private readonly host: KeyExchangeHost,
    store?: EpochKeyStore,
  ) {
    this.ring = new EpochKeyRing(store);
  }

  /** The key to send under in an epoch: one held, else a new one, first given to every live member. */
  sendingKey(epoch: number): Promise<TEpochKey> {
    const held = this.ring.sendingKey(epoch);
    if (held) return Promise.resolve(held);
    let creating = this.ensuring.get(epoch);
    if (!creating) {
      creating = this.createKey(epoch).finally(() => this.ensuring.delete(epoch));
      this.ensuring.set(epoch, creating);
    }
    return creating;
  }

  isHeld(messageId: string): boolean {
    return this.held.has(messageId);
  }

  /** Keeps a message under a key not held yet (unacked) and asks its sender for the key; false when full. */
  hold(frame: TMessageFrame): boolean {
    const head = epochOf(frame.ciphertext);
    if (!head || this.held.size >= MAX_HELD) return false;
    const timer = setTimeout(() => {
      if (this.held.delete(frame.messageId)) this.host.giveUp(frame);
    }, HOLD_MS);
    // Portable (the chat page shares this class): a browser's timers have no unref.
    (timer as { unref?: () => void }).unref?.();
    this.held.set(frame.messageId, { frame, timer });
    const ask = `${head.epoch}:${head.keyId}:${frame.from}`;
    if (!this.asked.has(ask) && frame.from !== this.host.memberId) {
      this.asked.add(ask);
      void this.host
        .boxKeysOf([frame.from])
        .then((to) =>
          this.host.sendSealed(
            { kind: "peer", memberId: frame.from },
            sealDirect(encodeJsonPlaintext({ kind: "mesh_key_request", ...head }), to, this.host.boxSecretKey),
            "high",
          ),
        )
        .catch(() => this.asked.delete(ask));
    }
    return true;
  }

  /** A direct control message (a key or a request for one); anything else is ignored. */
  async onControl(frame: TMessageFrame, plaintext: Uint8Array): Promise<void> {
    const json = plaintextJson(plaintext);
    const key = ZMeshKeyPlaintext.safeParse(json);
    const request = ZMeshKeyRequestPlaintext.safeParse(json);
    if (!key.success && !request.success) return;
    // Only from a member the broker lists as live now: a removed member's key (or request) counts for nothing.
    const live = await this.host.peers().catch(() => undefined);
    if (!live?.some((p) => p.memberId === frame.from)) return;
    if (key.success) {
      // A key of an epoch the broker has not announced yet could come from a member about to be removed.
      if (key.data.epoch > this.host.epoch()) return;
      const entry = this.ring.add(key.data.epoch, fromBase64Url(key.data.key, 32));
      this.host.keyReceived({ epoch: entry.epoch, keyId: entry.keyId, from: frame.from });
      for (const [messageId, h] of [...this.held]) {
        const head = epochOf(h.frame.ciphertext);
        if (head?.epoch !== entry.epoch || head.keyId !== entry.keyId) continue;
        clearTimeout(h.timer);
        this.held.delete(messageId);
        this.host.redeliver(h.frame);
      }
      return;
    }
    if (request.success) {
      const wanted = this.ring.get(request.data.epoch, request.data.keyId);
      const to = live.find((p) => p.memberId === frame.from);
      if (!wanted || !to?.boxPubkey) return;
      await this.give({ epoch: request.data.epoch, keyId: request.data.keyId, key: toBase64Url(wanted) }, [
        { memberId: to.memberId, boxPubkey: to.boxPubkey },
      ]);
    }
  }

  /** A member came online: the keys this peer created for the current epoch go to it if it lacks them. */
  async shareWithNewcomer(memberId: string): Promise<void> {
    if (memberId === this.host.memberId) return;
    for (const [keyId, record] of this.shared) {
      if (record.epoch !== this.host.epoch() || record.members.has(memberId)) continue;
      const [to] = await this.host.boxKeysOf([memberId]);
      const key = this.ring.get(record.epoch, keyId);
      if (to && key) await this.give({ epoch: record.epoch, keyId, key: toBase64Url(key) }, [to]);
    }
  }

  /** Drops the held messages (the client is closing; they stay queued at the broker, unacked). */
  clear(): void {
    for (const h of this.held.values()) clearTimeout(h.timer);
    this.held.clear();
  }

  private async createKey(epoch: number): Promise<TEpochKey> {
    const peers = await this.host.peers();
    const entry = this.ring.create(epoch);
    this.shared.set(entry.keyId, { epoch, members: new Set<string>() });
    const others = peers.filter(
      (p): p is TPeerInfo & { boxPubkey: string } => p.memberId !== this.host.memberId && !!p.boxPubkey,
    );
    // Stored before the first message under it, so each member's queue holds the key first.
    await this.give(entry, others);
    return this.ring.sendingKey(epoch) ?? entry;
  }

  private async give(entry: TEpochKey, to: readonly DirectRecipient[]): Promise<void> {
    const record = this.shared.get(entry.keyId);
    const plaintext = encodeJsonPlaintext({ kind: "mesh_key", epoch: entry.epoch, key: entry.key });
    for (let i = 0; i < to.length; i += MAX_TARGET_PEERS) {
      const chunk = to.slice(i, i + MAX_TARGET_PEERS);
      const target: TTargetSpec =
        chunk.length === 1 && chunk[0]
          ? { kind: "peer", memberId: chunk[0].memberId }
          : { kind: "peers", memberIds: chunk.map((r) => r.memberId) };
      await this.host.sendSealed(target, sealDirect(plaintext, chunk, this.host.boxSecretKey), "high");
      for (const r of chunk) record?.members.add(r.memberId);
    }
  }
}

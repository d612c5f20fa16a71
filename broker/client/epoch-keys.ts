// The whole-mesh keys of epochs above 0 that this peer holds (docs/protocol.md, "Key epochs").
import nacl from "tweetnacl";
import { z } from "zod";
import { fromBase64Url, toBase64Url, tryFromBase64Url } from "../../src/server/core/encoding";
import { epochKeyId } from "./payload-crypto";

export const ZEpochKey = z.object({
  epoch: z.number().int().min(1),
  keyId: z.string().regex(/^[0-9a-f]{16}$/),
  key: z.string().refine((k) => tryFromBase64Url(k, 32) !== undefined),
});
export type TEpochKey = z.output<typeof ZEpochKey>;

/** Where a ring keeps its keys between sessions (MESH_HOME, 0600; config-store.ts). */
export interface EpochKeyStore {
  load(): TEpochKey[];
  save(keys: readonly TEpochKey[]): void;
}

/** Most keys kept: older epochs go first (their messages have left every queue by then). */
export const MAX_EPOCH_KEYS = 64;

/**
 * Keys by epoch and id. Several members may each create a key for the same epoch at once; every key is
 * kept (messages under any of them open), and a sender uses the one with the lowest id, so the members
 * settle on one key without talking to each other.
 */
export class EpochKeyRing {
  private readonly keys = new Map<string, TEpochKey>();

  constructor(private readonly store?: EpochKeyStore) {
    for (const k of store?.load() ?? [])
      if (ZEpochKey.safeParse(k).success && epochKeyId(fromBase64Url(k.key, 32)) === k.keyId)
        this.keys.set(idOf(k.epoch, k.keyId), k);
  }

  /** Adds a key (idempotent); returns its entry. */
  add(epoch: number, key: Uint8Array): TEpochKey {
    const entry = { epoch, keyId: epochKeyId(key), key: toBase64Url(key) };
    if (this.keys.has(idOf(epoch, entry.keyId))) return entry;
    this.keys.set(idOf(epoch, entry.keyId), entry);
    if (this.keys.size > MAX_EPOCH_KEYS) {
      const oldest = [...this.keys.values()].sort((a, b) => a.epoch - b.epoch)[0];
      if (oldest) this.keys.delete(idOf(oldest.epoch, oldest.keyId));
    }
    this.store?.save([...this.keys.values()]);
    return entry;
  }

  /** A new random key for an epoch, added. */
  create(epoch: number): TEpochKey {
    return this.add(epoch, nacl.randomBytes(32));
  }

  get(epoch: number, keyId: string): Uint8Array | undefined {
    const k = this.keys.get(idOf(epoch, keyId));
    return k ? fromBase64Url(k.key, 32) : undefined;
  }

  /** The key to send under in an epoch: the lowest id among those held. */
  sendingKey(epoch: number): TEpochKey | undefined {
    let best: TEpochKey | undefined;
    for (const k of this.keys.values()) if (k.epoch === epoch && (!best || k.keyId < best.keyId)) best = k;
    return best;
  }

  get size(): number {
    return this.keys.size;
  }
}

const idOf = (epoch: number, keyId: string) => `${epoch}:${keyId}`;

// The members this client knows of, kept current from the broker's `peers`, `presence` and `status`
// frames; the box keys of direct messages come from here.
import type { TPeerInfo, TServerFrame } from "../protocol/frames";
import { MeshClientError } from "./mesh-client-error";
import type { DirectRecipient } from "./mesh-crypto";

export class PeerDirectory {
  private readonly known = new Map<string, TPeerInfo>();

  /** `refresh` asks the broker for the live members (its `peers` answer comes back through apply()). */
  constructor(private readonly refresh: () => Promise<unknown>) {}

  get(memberId: string): TPeerInfo | undefined {
    return this.known.get(memberId);
  }

  /** Takes what a frame says about members; other frames are ignored. */
  apply(frame: TServerFrame): void {
    if (frame.type === "peers") {
      for (const p of frame.peers) this.known.set(p.memberId, p);
      return;
    }
    if (frame.type !== "presence" && frame.type !== "status") return;
    const known = this.known.get(frame.memberId);
    if (!known) return;
    if (frame.type === "presence")
      this.known.set(frame.memberId, {
        ...known,
        displayName: frame.displayName,
        online: frame.online,
        receiving: frame.receiving,
      });
    else this.known.set(frame.memberId, { ...known, status: frame.status, statusText: frame.text });
  }

  /** The box keys of these members, asking the broker once when one is missing. */
  async boxKeysOf(ids: readonly string[]): Promise<DirectRecipient[]> {
    if (ids.some((id) => !this.known.get(id)?.boxPubkey)) await this.refresh();
    return ids.map((memberId) => {
      const peer = this.known.get(memberId);
      if (!peer) throw new MeshClientError("NOT_FOUND", `no live member ${memberId} in this mesh`);
      if (!peer.boxPubkey)
        throw new MeshClientError(
          "NO_BOX_KEY",
          `${peer.displayName} has no key for direct messages (its client sent none); send to the whole mesh instead`,
        );
      return { memberId, boxPubkey: peer.boxPubkey };
    });
  }
}

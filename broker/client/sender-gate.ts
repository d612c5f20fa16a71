import type { TPeerInfo } from "../protocol/frames";

/**
 * Which senders count as members now (docs/cli.md, "Use with Claude Code"): the live members the broker
 * lists in `peers`, read again whenever the mesh's key epoch rose (every removal or departure raises
 * it), when a sender is not in the list (a member who just joined), and at least every `maxAgeMs`. A
 * message queued by a member removed since is then not shown: its sender is no longer listed.
 */
export class SenderGate {
  private members = new Set<string>();
  private loadedAt = Number.NEGATIVE_INFINITY;
  private loadedEpoch = -1;
  private loading: Promise<void> | undefined;

  constructor(
    private readonly source: { peers(): Promise<TPeerInfo[]>; readonly keyEpoch: number },
    private readonly opts: { maxAgeMs?: number; minRefreshMs?: number } = {},
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether `memberId` is a live member now; rejects when the list cannot be read (nothing is decided then). */
  async admits(memberId: string): Promise<boolean> {
    const age = this.now() - this.loadedAt;
    const current = this.loadedEpoch === this.source.keyEpoch && age < (this.opts.maxAgeMs ?? 60_000);
    if (current && this.members.has(memberId)) return true;
    // Read a moment ago and not in it: a stranger (asking again for each of its messages would let it
    // make this client flood the broker with `peers` frames).
    if (current && age < (this.opts.minRefreshMs ?? 2_000)) return false;
    await this.refresh();
    return this.members.has(memberId);
  }

  private refresh(): Promise<void> {
    this.loading ??= (async () => {
      const epoch = this.source.keyEpoch;
      try {
        const peers = await this.source.peers();
        this.members = new Set(peers.map((p) => p.memberId));
        this.loadedAt = this.now();
        this.loadedEpoch = epoch;
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }
}

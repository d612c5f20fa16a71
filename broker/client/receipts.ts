// Read receipts (docs/protocol.md, "Receipts"): a member that has been shown messages tells their
// senders so, end to end encrypted, in direct messages of kind `receipt`. The broker sees one more
// direct message between two members who already exchanged one, and nothing of what it says.
import type { TMessagePriority, TTargetSpec } from "../protocol/frames";
import type { ReadReceipt, SentReceipt } from "./client-types";
import {
  encodeJsonPlaintext,
  MAX_RECEIPT_IDS,
  plaintextJson,
  sealDirect,
  ZReceiptPlaintext,
  type DirectRecipient,
} from "./mesh-crypto";

/** What the outbox needs of the client that owns it. */
export interface ReceiptHost {
  readonly memberId: string;
  readonly boxSecretKey: Uint8Array;
  boxKeysOf(ids: readonly string[]): Promise<DirectRecipient[]>;
  sendSealed(to: TTargetSpec, ciphertext: string, priority: TMessagePriority): Promise<SentReceipt>;
}

export interface ReceiptOutboxOptions {
  /** How long ids gather before they go (one receipt per sender per flush). */
  delayMs?: number;
  /** Ids waiting at most; past it new ones are dropped (counted): a receipt is a courtesy, not a duty. */
  maxPending?: number;
}

/**
 * Read receipts waiting to go, gathered per sender: every `delayMs` each sender gets one direct message
 * naming up to MAX_RECEIPT_IDS of its messages (several when more), so reading a hundred messages costs
 * a sender one message, not a hundred. Sent `high`, so a sender busy `working` gets them at once (its
 * normal messages would be held). Best effort: a receipt that cannot be sent (the sender left, no box
 * key, the connection closed) is dropped.
 */
export class ReceiptOutbox {
  private readonly pending = new Map<string, Set<string>>();
  private count = 0;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> = Promise.resolve();
  /** Ids dropped because too many waited. */
  dropped = 0;

  constructor(
    private readonly host: ReceiptHost,
    private readonly opts: ReceiptOutboxOptions = {},
  ) {}

  /** Marks a message of `sender` as read; nothing for our own messages. */
  add(sender: string, messageId: string): void {
    if (sender === this.host.memberId) return;
    let ids = this.pending.get(sender);
    if (ids?.has(messageId)) return;
    if (this.count >= (this.opts.maxPending ?? 2_000)) {
      this.dropped += 1;
      return;
    }
    if (!ids) this.pending.set(sender, (ids = new Set()));
    ids.add(messageId);
    this.count += 1;
    this.timer ??= setTimeout(() => void this.flush(), this.opts.delayMs ?? 500);
    this.timer.unref();
  }

  /** Ids waiting to go. */
  get size(): number {
    return this.count;
  }

  /** Sends what waits now; resolves when those sends are answered (or failed). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = [...this.pending];
    this.pending.clear();
    this.count = 0;
    const at = new Date().toISOString();
    const sends = batch.map(([sender, ids]) => this.send(sender, [...ids], at));
    this.inFlight = Promise.all([this.inFlight, ...sends]).then(() => undefined);
    return this.inFlight;
  }

  /** Sends what waits and waits for it, at most `timeoutMs` (closing). */
  async drain(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.flush(), new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
  }

  private async send(sender: string, ids: string[], at: string): Promise<void> {
    try {
      const to = await this.host.boxKeysOf([sender]);
      for (let i = 0; i < ids.length; i += MAX_RECEIPT_IDS) {
        const plaintext = encodeJsonPlaintext({ kind: "receipt", read: ids.slice(i, i + MAX_RECEIPT_IDS), at });
        await this.host.sendSealed(
          { kind: "peer", memberId: sender },
          sealDirect(plaintext, to, this.host.boxSecretKey),
          "high",
        );
      }
    } catch {
      // dropped: the sender keeps seeing "delivered"
    }
  }
}

/**
 * The receipt of a direct control plaintext, or undefined when it is not one. `at` is never later than
 * when the broker stored the receipt (a reader's clock ahead of time cannot date a read in the future).
 */
export function parseReceipt(from: string, plaintext: Uint8Array, storedAt: string): ReadReceipt | undefined {
  const parsed = ZReceiptPlaintext.safeParse(plaintextJson(plaintext));
  if (!parsed.success) return undefined;
  const at = Date.parse(parsed.data.at) > Date.parse(storedAt) ? storedAt : parsed.data.at;
  return { from, read: [...new Set(parsed.data.read)], at };
}

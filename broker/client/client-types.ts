// Types of the peer client: events, received messages, receipts and options.
import type { TMessagePriority, TServerFrame, TTargetSpec } from "../protocol/frames";
import type { BackoffOptions } from "./delivery";
import type { EpochKeyStore } from "./epoch-keys";
import type { MeshClientError } from "./mesh-client-error";
import type { SocketEnd } from "./socket";

export type Frame<T extends TServerFrame["type"]> = Extract<TServerFrame, { type: T }>;
export type Welcome = Frame<"welcome">;
export type StatusEvent = Frame<"status">;
export type PresenceEvent = Frame<"presence">;

/** A decrypted text message. */
export interface ReceivedMessage {
  messageId: string;
  seq: string;
  from: string;
  /** The sender's display name when known from `peers` or `presence`. */
  fromName: string | null;
  to: TTargetSpec;
  direct: boolean;
  priority: TMessagePriority;
  createdAt: string;
  attempt: number;
  text: string;
  sentAt: string;
  /** The id of the message this one answers (from the plaintext); null or absent when it answers none. */
  replyTo?: string | null;
}

/** A read receipt of another member: it has been shown these messages of ours (docs/protocol.md, "Receipts"). */
export interface ReadReceipt {
  from: string;
  read: string[];
  /** When, by the reader's clock. */
  at: string;
}

export interface SentReceipt {
  messageId: string;
  createdAt: string;
  recipients: number;
}

export interface MeshClientEvents {
  connected: [Welcome];
  disconnected: [SocketEnd];
  reconnecting: [{ attempt: number; delayMs: number }];
  message: [ReceivedMessage];
  status: [StatusEvent];
  presence: [PresenceEvent];
  undecryptable: [{ messageId: string; from: string; reason: string }];
  /** A whole-mesh key of an epoch arrived from a live member (docs/protocol.md, "Key epochs"). */
  epochKey: [{ epoch: number; keyId: string; from: string }];
  /**
   * A message frame was taken care of and acked: shown (`message`), dropped (`duplicate`, `undecryptable`,
   * `rejected`) or a control message (a receipt, a key). One per frame the broker handed out, so a
   * session that reads what `welcome.queued` announced counts these.
   */
  handled: [{ messageId: string }];
  /** A text from a sender that is not a live member now (with `senderGate`): acked, not shown. */
  rejected: [{ messageId: string; from: string; reason: "not_a_member" }];
  /** A read receipt from a member (a direct control message). */
  receipt: [ReadReceipt];
  /** A message delivered again (no ack reached the broker in time); dropped, acked again. */
  duplicate: [{ messageId: string; attempt: number }];
  /** The broker refused the connection for good (auth failure); the client has stopped. */
  fatal: [MeshClientError];
}

export interface MeshClientOptions {
  backoff?: BackoffOptions;
  /** Delay before a batch of acks is sent. */
  ackDelayMs?: number;
  random?: () => number;
  /**
   * False for a session that only sends or asks (the command line's send, peers, status): it connects
   * with `receive=0`, so the broker pushes it no messages (they stay queued for a session that receives)
   * and peers see it as connected only to send; a message frame that comes anyway is left alone, unacked.
   */
  receive?: boolean;
  /** Where the keys of epochs above 0 are kept between sessions (ConfigStore.epochKeyStore); memory only without. */
  epochKeyStore?: EpochKeyStore;
  /**
   * Show texts only from senders a fresh `peers` lists as live members (sender-gate.ts): a message a
   * member queued before it was removed is acked and reported as `rejected`, never emitted.
   */
  senderGate?: boolean;
  /** How long read receipts gather before they go (default 500 ms). */
  receiptDelayMs?: number;
  /** How long one connection attempt may take, from dialling to the welcome (default 10 s). */
  handshakeTimeoutMs?: number;
}

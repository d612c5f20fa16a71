// The chat page's peer (issue 45): one WebSocket to the broker as the person's browser device, with the
// same protocol and the same payload code as the command line (broker/client's portable parts), so the two
// read each other. No Node built-ins: it runs in the browser and, for tests, under Node's own WebSocket.
import nacl from "tweetnacl";
import type {
  TMessageFrame,
  TMessagePriority,
  TPeerInfo,
  TServerFrame,
  TTargetSpec,
} from "../../broker/protocol/frames";
import { MAX_TARGET_PEERS } from "../../broker/protocol/frames";
import { authSubprotocols, wsAuthString } from "../../broker/protocol/ws-subprotocol";
import { KeyExchange } from "../../broker/client/key-exchange";
import type { EpochKeyStore } from "../../broker/client/epoch-keys";
import {
  decodePlaintext,
  deriveMeshKey,
  encodeTextPlaintext,
  openCiphertext,
  sealDirect,
  sealForEpoch,
  sealForMesh,
  type DirectRecipient,
} from "../../broker/client/payload-crypto";
import { parseServerFrame } from "../../broker/client/server-frames";
import type { SentReceipt } from "../../broker/client/client-types";
import { backoffDelay, DEFAULT_BACKOFF, RESTART_BACKOFF } from "../../broker/client/delivery";
import { fromBase64Url, toBase64Url, utf8 } from "../server/core/encoding";
import { shouldRetry } from "../server/core/errors";

/** The secret halves of a browser device, as IndexedDB keeps them (device-store.ts). */
export interface DeviceSecrets {
  memberId: string;
  /** tweetnacl's 64-byte ed25519 secret key (seed ‖ public key). */
  signSecretKey: Uint8Array;
  boxSecretKey: Uint8Array;
}

/** A text message as the page shows it. */
export interface ChatMessage {
  messageId: string;
  seq: number;
  from: string;
  /** `mesh` for the whole mesh, else the direct message's other members (for one sent here: its recipients). */
  to: "mesh" | string[];
  text: string;
  sentAt: string;
  createdAt: string;
  direct: boolean;
}

/** Why the chat stopped for good: a close the broker means as final (close codes, docs/protocol.md). */
export interface ChatEnd {
  code: number;
  reason: string;
}

export interface ChatClientOptions {
  brokerUrl: string;
  meshId: string;
  /** The mesh's root key (base64url, 32 bytes): whole-mesh messages of epoch 0. */
  rootKey: string;
  device: DeviceSecrets;
  epochKeys?: EpochKeyStore;
  onMessage?: (message: ChatMessage) => void;
  onPeers?: (peers: TPeerInfo[]) => void;
  onPresence?: (frame: Extract<TServerFrame, { type: "presence" }>) => void;
  onStatus?: (frame: Extract<TServerFrame, { type: "status" }>) => void;
  onState?: (state: "connecting" | "open" | "reconnecting") => void;
  /** The broker closed the connection for good (removed, left, archived, ...): the chat is over. */
  onEnd?: (end: ChatEnd) => void;
  /** Constructor of the socket (tests under Node pass its global WebSocket; the browser's by default). */
  WebSocket?: typeof WebSocket;
}

const REQUEST_TIMEOUT_MS = 15_000;

interface Pending {
  resolve: (frame: TServerFrame) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

/** The `/ws` URL of a broker address (`ws(s)://host[/prefix]`, as PUBLIC_BROKER_URL is written). */
export function brokerSocketUrl(brokerUrl: string, meshId: string, memberId: string): string {
  return `${brokerUrl.replace(/\/+$/, "")}/ws?mesh=${meshId}&member=${memberId}`;
}

/** The connection proof `v1.<ts>.<nonce>.<signature>` (docs/protocol.md, "Connecting"), made in the browser. */
export function connectionProof(meshId: string, memberId: string, signSecretKey: Uint8Array, ts = Date.now()): string {
  const nonce = toBase64Url(nacl.randomBytes(16));
  const signature = nacl.sign.detached(utf8(wsAuthString({ meshId, memberId, ts, nonce })), signSecretKey);
  return `v1.${ts}.${nonce}.${toBase64Url(signature)}`;
}

export class ChatClient {
  private ws: WebSocket | undefined;
  private epoch = 0;
  private stopped = false;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly pending = new Map<string, Pending>();
  private readonly seen = new Set<string>();
  private peerList: TPeerInfo[] = [];
  private readonly meshKey: Uint8Array;
  private readonly keyExchange: KeyExchange;
  private acks: string[] = [];
  private ackTimer: ReturnType<typeof setTimeout> | undefined;
  private inbox: Promise<void> = Promise.resolve();

  constructor(private readonly opts: ChatClientOptions) {
    this.meshKey = deriveMeshKey(fromBase64Url(opts.rootKey, 32));
    this.keyExchange = new KeyExchange(
      {
        memberId: opts.device.memberId,
        boxSecretKey: opts.device.boxSecretKey,
        epoch: () => this.epoch,
        peers: () => this.peers(),
        boxKeysOf: (ids) => this.boxKeysOf(ids),
        sendSealed: (to, ciphertext, priority) => this.sendSealed(to, ciphertext, priority),
        redeliver: (frame) => this.enqueue(frame),
        giveUp: (frame) => this.ack(frame.messageId),
        keyReceived: () => {},
      },
      opts.epochKeys,
    );
  }

  get memberId(): string {
    return this.opts.device.memberId;
  }

  /** The live members as the broker last listed them. */
  get currentPeers(): readonly TPeerInfo[] {
    return this.peerList;
  }

  /** Opens the connection (and opens it again after a retriable close, with back-off). */
  start(): void {
    this.stopped = false;
    this.dial();
  }

  /** Closes for good. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.flushAcks();
    this.keyExchange.clear();
    this.ws?.close(1000, "bye");
    this.ws = undefined;
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new Error("closed"));
      this.pending.delete(id);
    }
  }

  /** Asks the broker for the live members (and keeps them). */
  async peers(): Promise<TPeerInfo[]> {
    const answer = await this.request({ v: 1, type: "peers", id: crypto.randomUUID() });
    if (answer.type !== "peers") throw new Error("unexpected answer");
    this.peerList = answer.peers;
    this.opts.onPeers?.(answer.peers);
    return answer.peers;
  }

  /** Sends a text to the whole mesh, or to these members directly; resolves once the broker stored it. */
  async sendText(text: string, to: readonly string[] = []): Promise<SentReceipt & { message: ChatMessage }> {
    const plaintext = encodeTextPlaintext(text);
    const ids = [...new Set(to)].filter((id) => id !== this.memberId);
    let sent: SentReceipt;
    if (ids.length === 0) {
      try {
        sent = await this.sendToMesh(plaintext);
      } catch (error) {
        // The epoch rose between sealing and storing (the broker sent `key_epoch` first): once more.
        if (!(error instanceof Error && error.message.startsWith("stale_key_epoch"))) throw error;
        sent = await this.sendToMesh(plaintext);
      }
    } else {
      const recipients = await this.boxKeysOf(ids);
      const target: TTargetSpec =
        ids.length === 1 && ids[0] ? { kind: "peer", memberId: ids[0] } : { kind: "peers", memberIds: ids };
      sent = await this.sendSealed(target, sealDirect(plaintext, recipients, this.opts.device.boxSecretKey), "normal");
    }
    const message: ChatMessage = {
      messageId: sent.messageId,
      seq: Number.MAX_SAFE_INTEGER,
      from: this.memberId,
      to: ids.length === 0 ? "mesh" : ids,
      text,
      sentAt: new Date().toISOString(),
      createdAt: sent.createdAt,
      direct: ids.length > 0,
    };
    return { ...sent, message };
  }

  private async sendToMesh(plaintext: Uint8Array): Promise<SentReceipt> {
    const epoch = this.epoch;
    if (epoch === 0) return this.sendSealed({ kind: "mesh" }, sealForMesh(plaintext, this.meshKey), "normal");
    const key = await this.keyExchange.sendingKey(epoch);
    return this.sendSealed(
      { kind: "mesh", epoch },
      sealForEpoch(plaintext, epoch, fromBase64Url(key.key, 32)),
      "normal",
    );
  }

  private async boxKeysOf(ids: readonly string[]): Promise<DirectRecipient[]> {
    let known = this.peerList;
    if (ids.some((id) => !known.find((p) => p.memberId === id)?.boxPubkey)) known = await this.peers();
    if (ids.length > MAX_TARGET_PEERS) throw new Error("too many recipients");
    return ids.map((id) => {
      const peer = known.find((p) => p.memberId === id);
      if (!peer?.boxPubkey) throw new Error("recipient_unreachable");
      return { memberId: id, boxPubkey: peer.boxPubkey };
    });
  }

  private async sendSealed(to: TTargetSpec, ciphertext: string, priority: TMessagePriority): Promise<SentReceipt> {
    const answer = await this.request({ v: 1, type: "send", id: crypto.randomUUID(), to, priority, ciphertext });
    if (answer.type !== "sent") throw new Error("unexpected answer");
    return { messageId: answer.messageId, createdAt: answer.createdAt, recipients: answer.recipients };
  }

  private request(frame: { id: string } & Record<string, unknown>): Promise<TServerFrame> {
    return new Promise((resolve, reject) => {
      const ws = this.ws;
      if (!ws || ws.readyState !== ws.OPEN) return reject(new Error("not_connected"));
      const timer = setTimeout(() => {
        this.pending.delete(frame.id);
        reject(new Error("timeout"));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(frame.id, { resolve, reject, timer });
      ws.send(JSON.stringify(frame));
    });
  }

  private dial(): void {
    if (this.stopped) return;
    this.opts.onState?.(this.attempt === 0 ? "connecting" : "reconnecting");
    const { meshId, device } = this.opts;
    const Socket = this.opts.WebSocket ?? WebSocket;
    const proof = connectionProof(meshId, device.memberId, device.signSecretKey);
    const ws = new Socket(brokerSocketUrl(this.opts.brokerUrl, meshId, device.memberId), authSubprotocols(proof));
    this.ws = ws;
    ws.onmessage = (event) => {
      if (typeof event.data !== "string") return;
      const frame = parseServerFrame(event.data);
      if (frame) this.onFrame(frame);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = undefined;
      for (const [id, p] of this.pending) {
        clearTimeout(p.timer);
        p.reject(new Error("connection_lost"));
        this.pending.delete(id);
      }
      if (this.stopped) return;
      // The error table decides, by the reason's code, else the close code (docs/protocol.md, "Close codes"):
      // a removed member, a member that left, an archived mesh are for good.
      if (!shouldRetry({ code: event.reason || undefined, close: event.code })) {
        this.stopped = true;
        this.keyExchange.clear();
        this.opts.onEnd?.({ code: event.code, reason: event.reason });
        return;
      }
      // A refused upgrade reaches a page as 1006 without its status: dial again with back-off, the short
      // one while the node looks away (1001 going away, 1006 no close frame), as the command line does.
      const away = event.code === 1001 || event.code === 1006;
      const delay = backoffDelay(this.attempt, away ? RESTART_BACKOFF : DEFAULT_BACKOFF);
      this.attempt += 1;
      this.opts.onState?.("reconnecting");
      this.retryTimer = setTimeout(() => this.dial(), delay);
    };
  }

  private onFrame(frame: TServerFrame): void {
    switch (frame.type) {
      case "welcome":
        this.attempt = 0;
        this.epoch = frame.keyEpoch;
        this.opts.onState?.("open");
        void this.peers().catch(() => {});
        return;
      case "key_epoch":
        this.epoch = Math.max(this.epoch, frame.epoch);
        return;
      case "message":
        this.enqueue(frame);
        return;
      case "presence":
        this.opts.onPresence?.(frame);
        if (frame.online) void this.keyExchange.shareWithNewcomer(frame.memberId).catch(() => {});
        void this.peers().catch(() => {});
        return;
      case "status":
        this.opts.onStatus?.(frame);
        break;
      case "error":
        if (frame.id) {
          const p = this.pending.get(frame.id);
          if (p) {
            clearTimeout(p.timer);
            this.pending.delete(frame.id);
            p.reject(new Error(frame.message || frame.code));
          }
        }
        return;
      default:
        break;
    }
    const id = "id" in frame ? frame.id : undefined;
    const p = id ? this.pending.get(id) : undefined;
    if (id && p) {
      clearTimeout(p.timer);
      this.pending.delete(id);
      p.resolve(frame);
    }
  }

  private enqueue(frame: TMessageFrame): void {
    this.inbox = this.inbox.then(() => this.receive(frame)).catch(() => {});
  }

  /** Opens one message: a text goes to the page, a key or key request to the exchange; each is acked once read. */
  private async receive(frame: TMessageFrame): Promise<void> {
    if (this.seen.has(frame.messageId)) return this.ack(frame.messageId);
    if (this.keyExchange.isHeld(frame.messageId)) return;
    const direct = frame.to.kind !== "mesh";
    if (direct && !this.peerList.find((p) => p.memberId === frame.from)?.boxPubkey)
      await this.peers().catch(() => undefined);
    const opened = openCiphertext(frame.ciphertext, {
      meshKey: this.meshKey,
      memberId: this.memberId,
      boxSecretKey: this.opts.device.boxSecretKey,
      senderBoxPubkey: this.peerList.find((p) => p.memberId === frame.from)?.boxPubkey,
      epochKey: (epoch, keyId) => this.keyExchange.ring.get(epoch, keyId),
    });
    if (!opened.ok && opened.reason === "no_epoch_key" && this.keyExchange.hold(frame)) return;
    this.seen.add(frame.messageId);
    if (!opened.ok) return this.ack(frame.messageId);
    const decoded = decodePlaintext(opened.plaintext);
    if (decoded.kind === "text") {
      this.opts.onMessage?.({
        messageId: frame.messageId,
        seq: Number(frame.seq),
        from: frame.from,
        to: opened.direct ? [this.memberId] : "mesh",
        text: decoded.value.text,
        sentAt: decoded.value.sentAt,
        createdAt: frame.createdAt,
        direct: opened.direct,
      });
    } else if (opened.direct && decoded.kind === "other") {
      await this.keyExchange.onControl(frame, opened.plaintext).catch(() => {});
    }
    this.ack(frame.messageId);
  }

  private ack(messageId: string): void {
    this.acks.push(messageId);
    this.ackTimer ??= setTimeout(() => this.flushAcks(), 20);
  }

  private flushAcks(): void {
    clearTimeout(this.ackTimer);
    this.ackTimer = undefined;
    const ws = this.ws;
    while (this.acks.length > 0 && ws && ws.readyState === ws.OPEN)
      ws.send(JSON.stringify({ v: 1, type: "ack", messageIds: this.acks.splice(0, 500) }));
  }
}

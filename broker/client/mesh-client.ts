// The peer client of protocol v1: one logical connection to a mesh that reconnects by itself, sends
// encrypted messages (again after a reconnect when no `sent` came), and receives, decrypts, drops
// duplicates and acknowledges messages.
import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import type WebSocket from "ws";
import type {
  TClientFrameInput,
  TMessageFrame,
  TMessageStatus,
  TMessagePriority,
  TPeerInfo,
  TServerFrame,
  TTargetSpec,
} from "../protocol/frames";
import type { Frame, MeshClientEvents, MeshClientOptions, SentReceipt, StatusEvent, Welcome } from "./client-types";
import { parseReceipt, ReceiptOutbox } from "./receipts";
import { SenderGate } from "./sender-gate";
import { meshKeysOf, type MeshKeys, type TMeshConfig } from "./config-store";
import { MeshClientError } from "./mesh-client-error";
import { AckBatcher, PendingRequests, SeenIds, SendOutbox, type OutboxSlot } from "./delivery";
import type { EpochKeyRing } from "./epoch-keys";
import { KeyExchange } from "./key-exchange";
import {
  decodePlaintext,
  encodeTextPlaintext,
  openCiphertext,
  sealDirect,
  sealForEpoch,
  sealForMesh,
} from "./mesh-crypto";
import { fromBase64Url } from "../../src/server/core/encoding";
import { PeerDirectory } from "./peer-directory";
import { afterEnd, closeSocket, openSocket, type SocketEnd } from "./socket";

type SendFrameInput = Extract<TClientFrameInput, { type: "send" }>;

export class MeshClient extends EventEmitter<MeshClientEvents> {
  readonly keys: MeshKeys;
  private ws: WebSocket | undefined;
  private open = false;
  private stopped = false;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private connecting: Promise<Welcome> | undefined;
  private watchdog: NodeJS.Timeout | undefined;
  private welcome: Welcome | undefined;
  private readonly pending = new PendingRequests<TClientFrameInput & { id: string }, TServerFrame>();
  /** The `send` frames not yet confirmed, in the order they were made (their answers wait in `pending`). */
  private readonly outbox = new SendOutbox<SendFrameInput>((frame) => this.write(frame));
  private readonly directory = new PeerDirectory(() => this.peers());
  private readonly seen = new SeenIds();
  private readonly acks: AckBatcher;
  private inbox: Promise<void> = Promise.resolve();
  /** The mesh's key epoch as the broker last said (welcome, `key_epoch`). */
  private epoch = 0;
  private readonly keyExchange: KeyExchange;
  private readonly receipts: ReceiptOutbox;
  private readonly gate: SenderGate | undefined;

  constructor(
    readonly config: TMeshConfig,
    private readonly opts: MeshClientOptions = {},
  ) {
    super();
    this.keys = meshKeysOf(config);
    this.keyExchange = new KeyExchange(
      {
        memberId: config.memberId,
        boxSecretKey: this.keys.secrets.boxSecretKey,
        epoch: () => this.epoch,
        peers: () => this.peers(),
        boxKeysOf: (ids) => this.directory.boxKeysOf(ids),
        // Key shares go outside the outbox's order: a whole-mesh message waiting for its epoch's key
        // holds its place there, and the shares that make that key would wait behind it for ever.
        sendSealed: (to, ciphertext, priority) => this.sendSealed(to, ciphertext, priority, null),
        redeliver: (frame) => this.enqueue(frame),
        giveUp: (frame) => this.unreadable(frame, "no_epoch_key"),
        keyReceived: (event) => this.emit("epochKey", event),
      },
      opts.epochKeyStore,
    );
    this.receipts = new ReceiptOutbox(
      {
        memberId: config.memberId,
        boxSecretKey: this.keys.secrets.boxSecretKey,
        boxKeysOf: (ids) => this.directory.boxKeysOf(ids),
        // Outside the outbox's order, as key shares: a receipt never holds back a message.
        sendSealed: (to, ciphertext, priority) => this.sendSealed(to, ciphertext, priority, null),
      },
      { delayMs: opts.receiptDelayMs },
    );
    if (opts.senderGate) this.gate = new SenderGate(this);
    this.acks = new AckBatcher((messageIds) => this.write({ v: 1, type: "ack", messageIds }), opts.ackDelayMs ?? 20);
  }

  /** Starts connecting (and reconnecting); resolves at the first welcome, rejects on a fatal refusal or close(). */
  connect(): Promise<Welcome> {
    if (this.welcome && this.open) return Promise.resolve(this.welcome);
    if (this.stopped) return Promise.reject(new MeshClientError("CLOSED", "the client was closed"));
    // Every send and request made while the connection is down asks for it: they share one wait (one
    // pair of listeners), however many are queued.
    this.connecting ??= new Promise<Welcome>((resolve, reject) => {
      const settled = () => (this.connecting = undefined);
      const onWelcome = (w: Welcome) => (this.off("fatal", onFatal), settled(), resolve(w));
      const onFatal = (e: MeshClientError) => (this.off("connected", onWelcome), settled(), reject(e));
      this.once("connected", onWelcome);
      this.once("fatal", onFatal);
    });
    if (!this.ws && !this.retryTimer && !this.stopped) this.dial();
    return this.connecting;
  }

  /**
   * Sends a text to the whole mesh (default) or to members by id; resolves once the broker stored it.
   * `replyTo`: the id of the message it answers (carried inside the plaintext). `id`: the sender's own
   * message id (at most 64 characters; random when left out): a send again with the same id while the
   * first is held is answered with the first message, not stored again (docs/protocol.md).
   */
  async send(
    text: string,
    opts: { to?: readonly string[]; priority?: TMessagePriority; replyTo?: string; id?: string } = {},
  ): Promise<SentReceipt> {
    const plaintext = encodeTextPlaintext(text, new Date(), opts.replyTo);
    const ids = [...new Set(opts.to ?? [])];
    const priority = opts.priority ?? "normal";
    if (ids.length === 0) {
      try {
        return await this.sendToMesh(plaintext, priority, this.outbox.reserve(), opts.id);
      } catch (error) {
        // The epoch rose between sealing and storing (the broker said so with `key_epoch` first): once more.
        if (error instanceof MeshClientError && error.retryable)
          return this.sendToMesh(plaintext, priority, this.outbox.reserve(), opts.id);
        throw error;
      }
    }
    if (ids.includes(this.config.memberId))
      throw new MeshClientError("BAD_REQUEST", "a message cannot be sent to yourself");
    // Its place among this client's sends is taken now, before the keys are looked up.
    const slot = this.outbox.reserve();
    let recipients;
    try {
      recipients = await this.directory.boxKeysOf(ids);
    } catch (error) {
      this.outbox.release(slot);
      throw error;
    }
    const to: TTargetSpec =
      ids.length === 1 && ids[0] ? { kind: "peer", memberId: ids[0] } : { kind: "peers", memberIds: ids };
    return this.sendSealed(
      to,
      sealDirect(plaintext, recipients, this.keys.secrets.boxSecretKey),
      priority,
      slot,
      opts.id,
    );
  }

  /** The mesh's key epoch as this client knows it. */
  get keyEpoch(): number {
    return this.epoch;
  }

  /** The whole-mesh keys of epochs above 0 that this client holds. */
  get epochKeys(): EpochKeyRing {
    return this.keyExchange.ring;
  }

  // Epoch 0: the key every invite derives (format 0x01). Above: a key only the members of the epoch got.
  private async sendToMesh(
    plaintext: Uint8Array,
    priority: TMessagePriority,
    slot: OutboxSlot<SendFrameInput>,
    id?: string,
  ): Promise<SentReceipt> {
    const epoch = this.epoch;
    if (epoch === 0)
      return this.sendSealed({ kind: "mesh" }, sealForMesh(plaintext, this.keys.meshKey), priority, slot, id);
    let key;
    try {
      key = await this.keyExchange.sendingKey(epoch);
    } catch (error) {
      this.outbox.release(slot);
      throw error;
    }
    return this.sendSealed(
      { kind: "mesh", epoch },
      sealForEpoch(plaintext, epoch, fromBase64Url(key.key, 32)),
      priority,
      slot,
      id,
    );
  }

  /**
   * Sends a sealed message through the outbox (delivery.ts), in its place among this client's sends:
   * refused sends go again in their order, never after a later one (docs/protocol.md).
   */
  private async sendSealed(
    to: TTargetSpec,
    ciphertext: string,
    priority: TMessagePriority,
    slot: OutboxSlot<SendFrameInput> | null = this.outbox.reserve(),
    id: string = randomUUID(),
  ): Promise<SentReceipt> {
    const frame = { v: 1 as const, type: "send" as const, id, to, priority, ciphertext };
    const tooLarge = this.tooLarge(frame);
    if (tooLarge || this.stopped) {
      if (slot) this.outbox.release(slot);
      throw tooLarge ?? new MeshClientError("CLOSED", "the client was closed");
    }
    const answer = this.pending.wait(frame);
    // Without a slot (a key share): written at once, and sent again on its own like other requests.
    if (slot) this.outbox.fill(slot, frame);
    else this.write(frame);
    if (!this.open) void this.connect().catch(() => {});
    const sent = (await answer) as Frame<"sent">;
    return { messageId: sent.messageId, createdAt: sent.createdAt, recipients: sent.recipients };
  }

  /** The live members of the mesh (also refreshes the keys used for direct messages). */
  async peers(): Promise<TPeerInfo[]> {
    const answer = (await this.request({ v: 1, type: "peers", id: randomUUID() })) as Frame<"peers">;
    return answer.peers;
  }

  /** Sets this peer's status; resolves with the broker's `status` frame. */
  async setStatus(status: string, text?: string | null): Promise<StatusEvent> {
    return (await this.request({
      v: 1,
      type: "set_status",
      id: randomUUID(),
      status,
      text: text ?? null,
    })) as StatusEvent;
  }

  /**
   * Tells the senders of these messages that they have been read (shown to the model or the person): one
   * encrypted receipt per sender, batched (receipts.ts). Our own messages are skipped.
   */
  markRead(messages: readonly { from: string; messageId: string }[]): void {
    if (this.stopped) return;
    for (const m of messages) this.receipts.add(m.from, m.messageId);
  }

  /** The broker's delivery state of messages this member sent (at most MAX_STATUS_IDS; others' ids answer nothing). */
  async messageStatus(messageIds: readonly string[]): Promise<TMessageStatus[]> {
    const ids = [...new Set(messageIds)];
    if (ids.length === 0) return [];
    const answer = (await this.request({
      v: 1,
      type: "message_status",
      id: randomUUID(),
      messageIds: ids,
    })) as Frame<"message_status">;
    return answer.messages;
  }

  /** A known member (from `peers` and `presence`), if any. */
  peer(memberId: string): TPeerInfo | undefined {
    return this.directory.get(memberId);
  }

  get connected(): boolean {
    return this.open;
  }

  /** Stops for good: sends the acks still waiting, closes the socket, fails pending requests. */
  async close(): Promise<void> {
    // Read receipts still gathering go first (briefly: a close is not held up by a broker that is away).
    if (this.open && !this.stopped) await this.receipts.drain(2_000);
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.pending.failAll(new MeshClientError("CLOSED", "the client was closed"));
    this.outbox.clear();
    await this.inbox;
    this.keyExchange.clear();
    this.acks.flush();
    if (this.ws) await closeSocket(this.ws);
    this.emit("fatal", new MeshClientError("CLOSED", "the client was closed"));
  }

  // A frame above the broker's cap would make it close the socket (1009), again after every reconnect.
  private tooLarge(frame: TClientFrameInput): MeshClientError | undefined {
    const max = this.welcome?.maxMessageBytes;
    if (max === undefined || Buffer.byteLength(JSON.stringify(frame)) <= max) return undefined;
    return new MeshClientError(
      "PAYLOAD_TOO_LARGE",
      `the message is too large for this broker (frames of at most ${max} bytes)`,
    );
  }

  private request(frame: TClientFrameInput & { id: string }): Promise<TServerFrame> {
    if (this.stopped) return Promise.reject(new MeshClientError("CLOSED", "the client was closed"));
    const answer = this.pending.wait(frame);
    if (this.open) this.write(frame);
    else void this.connect().catch(() => {});
    return answer;
  }

  private write(frame: TClientFrameInput): void {
    if (this.open && this.ws?.readyState === this.ws?.OPEN) this.ws?.send(JSON.stringify(frame));
  }

  private dial(): void {
    this.retryTimer = undefined;
    const target = {
      brokerUrl: this.config.brokerUrl,
      meshId: this.config.meshId,
      memberId: this.config.memberId,
      signSecretKey: this.keys.signSecretKey,
      // A session that takes no messages says so: the broker pushes none to it, and peers see it only sends.
      receive: this.opts.receive !== false,
    };
    this.ws = openSocket(
      target,
      { onFrame: (f) => this.onFrame(f), onEnd: (e) => this.onEnd(e) },
      { handshakeTimeoutMs: this.opts.handshakeTimeoutMs },
    );
  }

  private onEnd(end: SocketEnd): void {
    const wasOpen = this.open;
    this.open = false;
    this.ws = undefined;
    if (this.watchdog) clearTimeout(this.watchdog);
    this.acks.drop();
    this.outbox.disconnected();
    if (this.stopped && !wasOpen) return;
    this.emit("disconnected", end);
    if (this.stopped) return;
    const next = afterEnd(end, this.attempt, this.opts);
    if ("fatal" in next) {
      this.stopped = true;
      this.pending.failAll(next.fatal);
      this.outbox.clear();
      this.emit("fatal", next.fatal);
      return;
    }
    this.attempt += 1;
    this.emit("reconnecting", { attempt: this.attempt, delayMs: next.delayMs });
    this.retryTimer = setTimeout(() => this.dial(), next.delayMs);
  }

  private onFrame(frame: TServerFrame): void {
    this.armWatchdog();
    this.directory.apply(frame);
    switch (frame.type) {
      case "welcome":
        this.open = true;
        this.attempt = 0;
        this.welcome = frame;
        this.epoch = Math.max(this.epoch, frame.keyEpoch ?? 0);
        this.armWatchdog();
        this.ws?.on("ping", () => this.armWatchdog());
        this.emit("connected", frame);
        // Requests without an answer go out again, with their ids: the broker answers a `send` it already
        // stored with that message instead of storing it twice (docs/protocol.md).
        // Sends go again in their order, through the outbox.
        for (const f of this.pending.frames()) {
          const tooLarge = this.tooLarge(f);
          if (tooLarge) this.settle(f.id, { error: tooLarge });
          else if (f.type !== "send" || !this.outbox.has(f.id)) this.write(f);
        }
        this.outbox.connected();
        return;
      case "message":
        if (this.opts.receive === false) return;
        this.enqueue(frame);
        return;
      case "key_epoch":
        this.epoch = Math.max(this.epoch, frame.epoch);
        return;
      case "presence":
        this.emit("presence", frame);
        if (frame.online) void this.keyExchange.shareWithNewcomer(frame.memberId).catch(() => {});
        return;
      case "status":
        if (!frame.id || !this.pending.get(frame.id)) this.emit("status", frame);
        break;
      case "error":
        if (frame.id && (frame.code === "SERVICE_UNAVAILABLE" || frame.code === "TOO_MANY_REQUESTS")) {
          // Nothing was stored (or the frame limit was reached): the same frame goes again after a wait;
          // a send in its place among the others (the outbox stops until the first refused one is taken).
          const id = frame.id;
          const waitMs = frame.code === "TOO_MANY_REQUESTS" ? 1_000 : 500;
          if (this.outbox.refused(id, waitMs)) return;
          setTimeout(() => {
            const again = this.pending.get(id);
            if (again) this.write(again);
          }, waitMs).unref();
          return;
        }
        if (frame.id) this.settle(frame.id, { error: this.requestError(frame.id, frame) });
        return;
      default:
        break;
    }
    if ("id" in frame && frame.id) this.settle(frame.id, { answer: frame });
  }

  /** Settles a request for good; a send leaves the outbox (and the ones it held back may go). */
  private settle(id: string, outcome: { answer: TServerFrame } | { error: Error }): void {
    this.pending.settle(id, outcome);
    this.outbox.settled(id);
  }

  /**
   * The error a request fails with. A whole-mesh `send` refused with CONFLICT under another epoch than the
   * one the broker just announced (`key_epoch` comes first, docs/protocol.md "Key epochs") is retryable:
   * sealed again under the new epoch, it will be taken.
   */
  private requestError(id: string, frame: Frame<"error">): MeshClientError {
    const request = this.pending.get(id);
    const stale =
      frame.code === "CONFLICT" &&
      request?.type === "send" &&
      request.to.kind === "mesh" &&
      (request.to.epoch ?? 0) !== this.epoch;
    return new MeshClientError(frame.code, frame.message, { retryable: stale });
  }

  private enqueue(frame: TMessageFrame): void {
    this.inbox = this.inbox.then(() => this.receive(frame)).catch(() => {});
  }

  // A message that cannot be read never will be: it is acked too, so it leaves the queue.
  private unreadable(frame: TMessageFrame, reason: string): void {
    this.seen.add(frame.messageId);
    this.acks.add(frame.messageId);
    this.emit("undecryptable", { messageId: frame.messageId, from: frame.from, reason });
    this.emit("handled", { messageId: frame.messageId });
  }

  private async receive(frame: TMessageFrame): Promise<void> {
    if (await this.handle(frame)) this.emit("handled", { messageId: frame.messageId });
  }

  /** Reads one message frame; true when it was acked (shown, dropped or a control message), false when left. */
  private async handle(frame: TMessageFrame): Promise<boolean> {
    if (this.seen.has(frame.messageId)) {
      this.acks.add(frame.messageId);
      this.emit("duplicate", { messageId: frame.messageId, attempt: frame.attempt });
      return true;
    }
    if (this.keyExchange.isHeld(frame.messageId)) return false; // delivered again while it waits for its key
    const direct = frame.to.kind !== "mesh";
    if (direct && !this.directory.get(frame.from)?.boxPubkey) await this.peers().catch(() => undefined);
    const sender = this.directory.get(frame.from);
    const keys = {
      meshKey: this.keys.meshKey,
      memberId: this.config.memberId,
      boxSecretKey: this.keys.secrets.boxSecretKey,
      senderBoxPubkey: sender?.boxPubkey,
      epochKey: (epoch: number, keyId: string) => this.keyExchange.ring.get(epoch, keyId),
    };
    const opened = openCiphertext(frame.ciphertext, keys);
    if (!opened.ok && opened.reason === "no_epoch_key" && this.keyExchange.hold(frame)) return false;
    const decoded = opened.ok ? decodePlaintext(opened.plaintext) : undefined;
    if (!opened.ok || !decoded || decoded.kind === "invalid") {
      this.unreadable(frame, opened.ok ? "bad_plaintext" : opened.reason);
      return false; // unreadable() said it was handled
    }
    if (decoded.kind === "text" && this.gate) {
      let member: boolean;
      try {
        member = await this.gate.admits(frame.from);
      } catch {
        return false; // the member list could not be read: left unacked, it comes again after the ack timeout
      }
      if (!member) {
        this.seen.add(frame.messageId);
        this.acks.add(frame.messageId);
        this.emit("rejected", { messageId: frame.messageId, from: frame.from, reason: "not_a_member" });
        return true;
      }
    }
    this.seen.add(frame.messageId);
    this.acks.add(frame.messageId);
    if (opened.direct && decoded.kind === "other" && decoded.name === "receipt") {
      const receipt = parseReceipt(frame.from, opened.plaintext, frame.createdAt);
      if (receipt) this.emit("receipt", receipt);
      return true;
    }
    if (opened.direct && decoded.kind === "other") {
      await this.keyExchange.onControl(frame, opened.plaintext);
      return true;
    }
    if (decoded.kind !== "text") return true;
    const { messageId, seq, from, to, priority, createdAt, attempt } = frame;
    this.emit("message", {
      messageId,
      seq,
      from,
      fromName: sender?.displayName ?? null,
      to,
      direct: opened.direct,
      priority,
      createdAt,
      attempt,
      text: decoded.value.text,
      sentAt: decoded.value.sentAt,
      replyTo: decoded.value.replyTo ?? null,
    });
    return true;
  }

  // A broker that vanished without closing (no FIN) would leave us waiting for ever: after two and a
  // half heartbeat intervals without any frame or ping the socket is dropped and dialled again.
  private armWatchdog(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    const heartbeat = this.welcome?.heartbeatMs;
    if (!heartbeat) return;
    this.watchdog = setTimeout(() => this.ws?.terminate(), heartbeat * 2.5);
    this.watchdog.unref();
  }
}

// The peer client of protocol v1: one logical connection to a mesh that reconnects by itself, sends
// encrypted messages (again after a reconnect when no `sent` came), and receives, decrypts, drops
// duplicates and acknowledges messages.
import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import type WebSocket from "ws";
import type { TClientFrameInput, TMessageFrame, TMessagePriority, TPeerInfo, TServerFrame, TTargetSpec } from "../protocol/frames";
import { MeshClientError, type Frame, type MeshClientEvents, type MeshClientOptions, type SentReceipt, type StatusEvent, type Welcome } from "./client-types";
import { meshKeysOf, type MeshKeys, type TMeshConfig } from "./config-store";
import { AckBatcher, backoffDelay, DEFAULT_BACKOFF, SeenIds } from "./delivery";
import { EpochKeyRing, type TEpochKey } from "./epoch-keys";
import {
  decodePlaintext,
  encodeJsonPlaintext,
  encodeTextPlaintext,
  epochOf,
  openCiphertext,
  plaintextJson,
  sealDirect,
  sealForEpoch,
  sealForMesh,
  ZMeshKeyPlaintext,
  ZMeshKeyRequestPlaintext,
  type DirectRecipient,
} from "./mesh-crypto";
import { fromBase64Url, toBase64Url } from "../../src/server/core/encoding";
import { MAX_TARGET_PEERS } from "../protocol/frames";
import { openSocket, type SocketEnd } from "./socket";

interface Pending {
  frame: TClientFrameInput & { id: string };
  answer: (frame: TServerFrame) => void;
  fail: (error: Error) => void;
}

// Closes after which the membership is over: reconnecting is pointless (docs/protocol.md, "Close codes").
const FINAL_CLOSE = new Set([4403, 4410]);
/** Messages under an epoch key not held yet wait this long for it (unacked), then count as undecryptable. */
const HOLD_MS = 60_000;
const MAX_HELD = 200;

// Refusals that a retry cannot fix (a 401 is every authentication failure: revoked, unknown, wrong key, clock).
const FATAL_STATUS = new Set([400, 401, 403, 404]);

export class MeshClient extends EventEmitter<MeshClientEvents> {
  readonly keys: MeshKeys;
  private ws: WebSocket | undefined;
  private open = false;
  private stopped = false;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private watchdog: NodeJS.Timeout | undefined;
  private welcome: Welcome | undefined;
  private readonly pending = new Map<string, Pending>();
  private readonly directory = new Map<string, TPeerInfo>();
  private readonly seen = new SeenIds();
  private readonly acks: AckBatcher;
  private inbox: Promise<void> = Promise.resolve();
  /** The mesh's key epoch as the broker last said (welcome, `key_epoch`). */
  private epoch = 0;
  readonly epochKeys: EpochKeyRing;
  private readonly ensuring = new Map<number, Promise<TEpochKey>>();
  /** Keys this peer created, with the members it has given them to (it gives them to newcomers too). */
  private readonly shared = new Map<string, { epoch: number; members: Set<string> }>();
  private readonly held = new Map<string, { frame: TMessageFrame; timer: NodeJS.Timeout }>();
  private readonly asked = new Set<string>();

  constructor(
    readonly config: TMeshConfig,
    private readonly opts: MeshClientOptions = {},
  ) {
    super();
    this.keys = meshKeysOf(config);
    this.epochKeys = new EpochKeyRing(opts.epochKeyStore);
    this.acks = new AckBatcher((messageIds) => this.write({ v: 1, type: "ack", messageIds }), opts.ackDelayMs ?? 20);
  }

  /** Starts connecting (and reconnecting); resolves at the first welcome, rejects on a fatal refusal or close(). */
  connect(): Promise<Welcome> {
    if (this.welcome && this.open) return Promise.resolve(this.welcome);
    if (this.stopped) return Promise.reject(new MeshClientError("CLOSED", "the client was closed"));
    const ready = new Promise<Welcome>((resolve, reject) => {
      const onWelcome = (w: Welcome) => (this.off("fatal", onFatal), resolve(w));
      const onFatal = (e: MeshClientError) => (this.off("connected", onWelcome), reject(e));
      this.once("connected", onWelcome);
      this.once("fatal", onFatal);
    });
    if (!this.ws && !this.retryTimer && !this.stopped) this.dial();
    return ready;
  }

  /** Sends a text to the whole mesh (default) or to members by id; resolves once the broker stored it. */
  async send(text: string, opts: { to?: readonly string[]; priority?: TMessagePriority } = {}): Promise<SentReceipt> {
    const plaintext = encodeTextPlaintext(text);
    const ids = [...new Set(opts.to ?? [])];
    const priority = opts.priority ?? "normal";
    if (ids.length === 0) {
      try {
        return await this.sendToMesh(plaintext, priority);
      } catch (error) {
        // The epoch rose between sealing and storing (the broker said so with `key_epoch` first): once more.
        if (error instanceof MeshClientError && error.code === "CONFLICT" && error.message.startsWith("stale_key_epoch")) return this.sendToMesh(plaintext, priority);
        throw error;
      }
    }
    if (ids.includes(this.config.memberId)) throw new MeshClientError("BAD_REQUEST", "a message cannot be sent to yourself");
    const recipients = await this.boxKeysOf(ids);
    const to: TTargetSpec = ids.length === 1 && ids[0] ? { kind: "peer", memberId: ids[0] } : { kind: "peers", memberIds: ids };
    return this.sendSealed(to, sealDirect(plaintext, recipients, this.keys.secrets.boxSecretKey), priority);
  }

  /** The mesh's key epoch as this client knows it. */
  get keyEpoch(): number {
    return this.epoch;
  }

  // Epoch 0: the key every invite derives (format 0x01). Above: a key only the members of the epoch got.
  private async sendToMesh(plaintext: Uint8Array, priority: TMessagePriority): Promise<SentReceipt> {
    const epoch = this.epoch;
    if (epoch === 0) return this.sendSealed({ kind: "mesh" }, sealForMesh(plaintext, this.keys.meshKey), priority);
    const key = await this.ensureEpochKey(epoch);
    return this.sendSealed({ kind: "mesh", epoch }, sealForEpoch(plaintext, epoch, fromBase64Url(key.key, 32)), priority);
  }

  private async sendSealed(to: TTargetSpec, ciphertext: string, priority: TMessagePriority): Promise<SentReceipt> {
    const frame = { v: 1 as const, type: "send" as const, id: randomUUID(), to, priority, ciphertext };
    const tooLarge = this.tooLarge(frame);
    if (tooLarge) throw tooLarge;
    const sent = (await this.request(frame)) as Frame<"sent">;
    return { messageId: sent.messageId, createdAt: sent.createdAt, recipients: sent.recipients };
  }

  /** The key to send under in an epoch: one held, else a new one, first given to every live member. */
  private ensureEpochKey(epoch: number): Promise<TEpochKey> {
    const held = this.epochKeys.sendingKey(epoch);
    if (held) return Promise.resolve(held);
    let creating = this.ensuring.get(epoch);
    if (!creating) {
      creating = this.createEpochKey(epoch).finally(() => this.ensuring.delete(epoch));
      this.ensuring.set(epoch, creating);
    }
    return creating;
  }

  private async createEpochKey(epoch: number): Promise<TEpochKey> {
    const peers = await this.peers();
    const entry = this.epochKeys.create(epoch);
    const record = { epoch, members: new Set<string>() };
    this.shared.set(entry.keyId, record);
    const others = peers.filter((p): p is TPeerInfo & { boxPubkey: string } => p.memberId !== this.config.memberId && !!p.boxPubkey);
    // Stored before the first message under it, so each member's queue holds the key first.
    await this.giveKey(entry, others);
    return this.epochKeys.sendingKey(epoch) ?? entry;
  }

  private async giveKey(entry: TEpochKey, to: readonly DirectRecipient[]): Promise<void> {
    const record = this.shared.get(entry.keyId);
    const plaintext = encodeJsonPlaintext({ kind: "mesh_key", epoch: entry.epoch, key: entry.key });
    for (let i = 0; i < to.length; i += MAX_TARGET_PEERS) {
      const chunk = to.slice(i, i + MAX_TARGET_PEERS);
      const target: TTargetSpec = chunk.length === 1 && chunk[0] ? { kind: "peer", memberId: chunk[0].memberId } : { kind: "peers", memberIds: chunk.map((r) => r.memberId) };
      await this.sendSealed(target, sealDirect(plaintext, chunk, this.keys.secrets.boxSecretKey), "high");
      for (const r of chunk) record?.members.add(r.memberId);
    }
  }

  /** The live members of the mesh (also refreshes the keys used for direct messages). */
  async peers(): Promise<TPeerInfo[]> {
    const answer = (await this.request({ v: 1, type: "peers", id: randomUUID() })) as Frame<"peers">;
    return answer.peers;
  }

  /** Sets this peer's status; resolves with the broker's `status` frame. */
  async setStatus(status: string, text?: string | null): Promise<StatusEvent> {
    return (await this.request({ v: 1, type: "set_status", id: randomUUID(), status, text: text ?? null })) as StatusEvent;
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
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    for (const p of this.pending.values()) p.fail(new MeshClientError("CLOSED", "the client was closed"));
    this.pending.clear();
    await this.inbox;
    for (const h of this.held.values()) clearTimeout(h.timer);
    this.held.clear();
    this.acks.flush();
    const ws = this.ws;
    if (ws && ws.readyState !== ws.CLOSED) {
      await new Promise<void>((resolve) => {
        // A broker that does not answer the closing handshake is not waited for (ws would wait 30 s).
        const timer = setTimeout(() => ws.terminate(), 2_000);
        ws.once("close", () => (clearTimeout(timer), resolve()));
        if (ws.readyState === ws.OPEN) ws.close(1000, "bye");
        else ws.terminate();
      });
    }
    this.emit("fatal", new MeshClientError("CLOSED", "the client was closed"));
  }

  // A frame above the broker's cap would make it close the socket (1009), again after every reconnect.
  private tooLarge(frame: TClientFrameInput): MeshClientError | undefined {
    const max = this.welcome?.maxMessageBytes;
    if (max === undefined || Buffer.byteLength(JSON.stringify(frame)) <= max) return undefined;
    return new MeshClientError("PAYLOAD_TOO_LARGE", `the message is too large for this broker (frames of at most ${max} bytes)`);
  }

  private request(frame: TClientFrameInput & { id: string }): Promise<TServerFrame> {
    if (this.stopped) return Promise.reject(new MeshClientError("CLOSED", "the client was closed"));
    return new Promise((answer, fail) => {
      this.pending.set(frame.id, { frame, answer, fail });
      if (this.open) this.write(frame);
      else void this.connect().catch(() => {});
    });
  }

  private write(frame: TClientFrameInput): void {
    if (this.open && this.ws?.readyState === this.ws?.OPEN) this.ws?.send(JSON.stringify(frame));
  }

  private dial(): void {
    this.retryTimer = undefined;
    const target = { brokerUrl: this.config.brokerUrl, meshId: this.config.meshId, memberId: this.config.memberId, signSecretKey: this.keys.signSecretKey };
    this.ws = openSocket(target, { onFrame: (f) => this.onFrame(f), onEnd: (e) => this.onEnd(e) });
  }

  private onEnd(end: SocketEnd): void {
    const wasOpen = this.open;
    this.open = false;
    this.ws = undefined;
    if (this.watchdog) clearTimeout(this.watchdog);
    this.acks.drop();
    if (this.stopped && !wasOpen) return;
    this.emit("disconnected", end);
    if (this.stopped) return;
    const final = end.kind === "closed" && FINAL_CLOSE.has(end.code);
    if ((end.kind === "refused" && FATAL_STATUS.has(end.status)) || final) {
      this.stopped = true;
      const error =
        end.kind === "closed"
          ? new MeshClientError(end.reason || `CLOSED_${end.code}`, `the broker ended this membership (${end.code} ${end.reason})`)
          : new MeshClientError(end.code ?? `HTTP_${end.status}`, refusalMessage(end.kind === "refused" ? end.status : 0));
      for (const p of this.pending.values()) p.fail(error);
      this.pending.clear();
      this.emit("fatal", error);
      return;
    }
    // The broker's Retry-After (a 429, or a 503 of a connect storm), plus up to half of it again so the
    // peers refused together do not return together; else exponential back-off with jitter.
    const wait = end.kind === "refused" && end.retryAfterSeconds ? end.retryAfterSeconds * 1000 : 0;
    const delayMs = wait > 0 ? wait + Math.round((this.opts.random ?? Math.random)() * (wait / 2)) : backoffDelay(this.attempt, this.opts.backoff ?? DEFAULT_BACKOFF, this.opts.random);
    this.attempt += 1;
    this.emit("reconnecting", { attempt: this.attempt, delayMs });
    this.retryTimer = setTimeout(() => this.dial(), delayMs);
  }

  private onFrame(frame: TServerFrame): void {
    this.armWatchdog();
    switch (frame.type) {
      case "welcome":
        this.open = true;
        this.attempt = 0;
        this.welcome = frame;
        this.epoch = Math.max(this.epoch, frame.keyEpoch ?? 0);
        this.armWatchdog();
        this.ws?.on("ping", () => this.armWatchdog());
        this.emit("connected", frame);
        // Requests without an answer go out again: a `send` may thus be stored twice (docs/protocol.md).
        for (const p of [...this.pending.values()]) {
          const tooLarge = this.tooLarge(p.frame);
          if (tooLarge) this.settle(p.frame.id, undefined, tooLarge);
          else this.write(p.frame);
        }
        return;
      case "message":
        if (this.opts.receive === false) return;
        this.inbox = this.inbox.then(() => this.receive(frame)).catch(() => {});
        return;
      case "peers":
        for (const p of frame.peers) this.directory.set(p.memberId, p);
        break;
      case "key_epoch":
        this.epoch = Math.max(this.epoch, frame.epoch);
        return;
      case "presence": {
        const known = this.directory.get(frame.memberId);
        if (known) this.directory.set(frame.memberId, { ...known, displayName: frame.displayName, online: frame.online });
        this.emit("presence", frame);
        if (frame.online) void this.shareWithNewcomer(frame.memberId).catch(() => {});
        return;
      }
      case "status": {
        const known = this.directory.get(frame.memberId);
        if (known) this.directory.set(frame.memberId, { ...known, status: frame.status, statusText: frame.text });
        if (!frame.id || !this.pending.has(frame.id)) this.emit("status", frame);
        break;
      }
      case "error":
        if (frame.id && (frame.code === "SERVICE_UNAVAILABLE" || frame.code === "TOO_MANY_REQUESTS")) {
          // Nothing was stored (or the frame limit was reached): the same frame goes again after a wait.
          const p = this.pending.get(frame.id);
          const waitMs = frame.code === "TOO_MANY_REQUESTS" ? 1_000 : 500;
          if (p) setTimeout(() => this.pending.has(p.frame.id) && this.write(p.frame), waitMs).unref();
          return;
        }
        if (frame.id) this.settle(frame.id, undefined, new MeshClientError(frame.code, frame.message));
        return;
      default:
        break;
    }
    if ("id" in frame && frame.id) this.settle(frame.id, frame);
  }

  private settle(id: string, frame: TServerFrame | undefined, error?: Error): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if (error || !frame) p.fail(error ?? new MeshClientError("INTERNAL", "no answer"));
    else p.answer(frame);
  }

  private async receive(frame: TMessageFrame): Promise<void> {
    if (this.seen.has(frame.messageId)) {
      this.acks.add(frame.messageId);
      this.emit("duplicate", { messageId: frame.messageId, attempt: frame.attempt });
      return;
    }
    if (this.held.has(frame.messageId)) return; // delivered again while it waits for its key
    const direct = frame.to.kind !== "mesh";
    if (direct && !this.directory.get(frame.from)?.boxPubkey) await this.peers().catch(() => undefined);
    const sender = this.directory.get(frame.from);
    const keys = {
      meshKey: this.keys.meshKey,
      memberId: this.config.memberId,
      boxSecretKey: this.keys.secrets.boxSecretKey,
      senderBoxPubkey: sender?.boxPubkey,
      epochKey: (epoch: number, keyId: string) => this.epochKeys.get(epoch, keyId),
    };
    const opened = openCiphertext(frame.ciphertext, keys);
    if (!opened.ok && opened.reason === "no_epoch_key" && this.hold(frame)) return;
    const decoded = opened.ok ? decodePlaintext(opened.plaintext) : undefined;
    this.seen.add(frame.messageId);
    // A message that cannot be read never will be: it is acked too, so it leaves the queue.
    this.acks.add(frame.messageId);
    if (opened.ok && opened.direct && decoded?.kind === "other") return this.onControl(frame, opened.plaintext);
    if (!opened.ok || !decoded || decoded.kind === "invalid") {
      this.emit("undecryptable", { messageId: frame.messageId, from: frame.from, reason: opened.ok ? "bad_plaintext" : opened.reason });
      return;
    }
    if (decoded.kind !== "text") return;
    const { messageId, seq, from, to, priority, createdAt, attempt } = frame;
    this.emit("message", { messageId, seq, from, fromName: sender?.displayName ?? null, to, direct: opened.direct, priority, createdAt, attempt, ...decoded.value });
  }

  // Keys travel in direct messages between live members (docs/protocol.md, "Key epochs").
  private async onControl(frame: TMessageFrame, plaintext: Uint8Array): Promise<void> {
    const json = plaintextJson(plaintext);
    const key = ZMeshKeyPlaintext.safeParse(json);
    const request = ZMeshKeyRequestPlaintext.safeParse(json);
    if (!key.success && !request.success) return;
    // Only from a member the broker lists as live now: a removed member's key (or request) counts for nothing.
    const live = await this.peers().catch(() => undefined);
    if (!live?.some((p) => p.memberId === frame.from)) return;
    if (key.success) {
      // A key of an epoch the broker has not announced yet could come from a member about to be removed.
      if (key.data.epoch > this.epoch) return;
      const entry = this.epochKeys.add(key.data.epoch, fromBase64Url(key.data.key, 32));
      this.emit("epochKey", { epoch: entry.epoch, keyId: entry.keyId, from: frame.from });
      for (const [messageId, h] of [...this.held]) {
        const head = epochOf(h.frame.ciphertext);
        if (head?.epoch !== entry.epoch || head.keyId !== entry.keyId) continue;
        clearTimeout(h.timer);
        this.held.delete(messageId);
        this.inbox = this.inbox.then(() => this.receive(h.frame)).catch(() => {});
      }
      return;
    }
    if (request.success) {
      const wanted = this.epochKeys.get(request.data.epoch, request.data.keyId);
      const to = live.find((p) => p.memberId === frame.from);
      if (!wanted || !to?.boxPubkey) return;
      await this.giveKey({ epoch: request.data.epoch, keyId: request.data.keyId, key: toBase64Url(wanted) }, [{ memberId: to.memberId, boxPubkey: to.boxPubkey }]);
    }
  }

  /** Keeps a message under a key not held yet (unacked) and asks its sender for the key; false when full. */
  private hold(frame: TMessageFrame): boolean {
    const head = epochOf(frame.ciphertext);
    if (!head || this.held.size >= MAX_HELD) return false;
    const timer = setTimeout(() => {
      if (!this.held.delete(frame.messageId)) return;
      this.seen.add(frame.messageId);
      this.acks.add(frame.messageId);
      this.emit("undecryptable", { messageId: frame.messageId, from: frame.from, reason: "no_epoch_key" });
    }, HOLD_MS);
    timer.unref();
    this.held.set(frame.messageId, { frame, timer });
    const ask = `${head.epoch}:${head.keyId}:${frame.from}`;
    if (!this.asked.has(ask) && frame.from !== this.config.memberId) {
      this.asked.add(ask);
      void this.boxKeysOf([frame.from])
        .then((to) => this.sendSealed({ kind: "peer", memberId: frame.from }, sealDirect(encodeJsonPlaintext({ kind: "mesh_key_request", ...head }), to, this.keys.secrets.boxSecretKey), "high"))
        .catch(() => this.asked.delete(ask));
    }
    return true;
  }

  /** A member came online: the keys this peer created for the current epoch go to it if it lacks them. */
  private async shareWithNewcomer(memberId: string): Promise<void> {
    if (memberId === this.config.memberId) return;
    for (const [keyId, record] of this.shared) {
      if (record.epoch !== this.epoch || record.members.has(memberId)) continue;
      const [to] = await this.boxKeysOf([memberId]);
      const key = this.epochKeys.get(record.epoch, keyId);
      if (to && key) await this.giveKey({ epoch: record.epoch, keyId, key: toBase64Url(key) }, [to]);
    }
  }

  private async boxKeysOf(ids: readonly string[]): Promise<{ memberId: string; boxPubkey: string }[]> {
    if (ids.some((id) => !this.directory.get(id)?.boxPubkey)) await this.peers();
    return ids.map((memberId) => {
      const peer = this.directory.get(memberId);
      if (!peer) throw new MeshClientError("NOT_FOUND", `no live member ${memberId} in this mesh`);
      if (!peer.boxPubkey) throw new MeshClientError("NO_BOX_KEY", `${peer.displayName} has no key for direct messages (its client sent none); send to the whole mesh instead`);
      return { memberId, boxPubkey: peer.boxPubkey };
    });
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

function refusalMessage(status: number): string {
  if (status === 401) return "the broker refused this peer's key (member revoked or unknown, mesh archived, or this machine's clock is more than 60 s off)";
  return `the broker refused the connection (HTTP ${status})`;
}

// The broker side of the cluster test: peers of one mesh, joined with signed invites through the
// brokers' POST /join and connected with the reference client (broker/client MeshClient: it dials
// again after a broker dies, sends again with the same id when no `sent` came, and drops messages it
// already has by messageId), sending whole-mesh and direct messages until stopped.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ConfigStore, joinWithLink, MeshClient } from "../../broker/client";
import { meshForBroker } from "../../broker/client/test-mesh";
import type { Db } from "../../src/server/core/db";
import { settingsWith } from "../../src/server/services/context";
import { ZCreateInviteInput } from "../../src/server/services/invites/create-invite.schema";
import { createInvite } from "../../src/server/services/invites/create-invite";
import { sleep, type ClusterProcess } from "./processes";

export interface Peer {
  name: string;
  memberId: string;
  broker: ClusterProcess;
  client: MeshClient;
  /** messageId → how many `message` events the client emitted for it (its own dedup: 1). */
  received: Map<string, number>;
  /** text → the messageIds it arrived under (one, unless a resend was stored twice). */
  texts: Map<string, Set<string>>;
  /** Message frames the broker delivered again and the client dropped as already seen. */
  duplicates: number;
  /** Welcomes: 1, plus one for every reconnect. */
  welcomes: number;
  /** When the last welcome came (Date.now()). */
  welcomedAt: number;
  /** Sender member id → the numbers of that sender's texts (`<name> #<n>`) in the order they arrived. */
  order: Map<string, number[]>;
  errors: string[];
}

export interface SentMessage {
  messageId: string;
  from: string;
  text: string;
  /** The member ids the message is for (every other peer, or the one of a direct message). */
  to: string[];
  recipients: number;
}

const ws = (p: ClusterProcess) => `ws://127.0.0.1:${p.port}`;

/** A mesh with `perBroker` peers connected to each broker (joined through that broker's invite). */
export async function meshPeers(db: Db, brokers: ClusterProcess[], perBroker: number) {
  const homes: string[] = [];
  const first = await meshForBroker(db, ws(brokers[0] as ClusterProcess));
  const peers: Peer[] = [];
  for (const [b, broker] of brokers.entries()) {
    const invite =
      b === 0
        ? first.invite
        : await createInvite(
            { ...first.deps, settings: settingsWith(first.deps.settings, { brokerUrl: ws(broker) }) },
            ZCreateInviteInput.parse({ meshId: first.mesh.id }),
          );
    for (let i = 0; i < perBroker; i++) {
      const home = mkdtempSync(path.join(os.tmpdir(), "mesh-cluster-"));
      homes.push(home);
      const name = `${broker.name}-peer${i}`;
      const joined = await joinWithLink(invite.inviteLink, {
        displayName: name,
        store: new ConfigStore(path.join(home, "cfg")),
      });
      const client = new MeshClient(joined.config, { backoff: { initialMs: 250, maxMs: 2_000 } });
      const peer: Peer = {
        name,
        memberId: joined.config.memberId,
        broker,
        client,
        received: new Map(),
        texts: new Map(),
        duplicates: 0,
        welcomes: 0,
        welcomedAt: 0,
        order: new Map(),
        errors: [],
      };
      client.on("connected", () => {
        peer.welcomes += 1;
        peer.welcomedAt = Date.now();
      });
      client.on("duplicate", () => (peer.duplicates += 1));
      client.on("undecryptable", (e) => peer.errors.push(`undecryptable ${e.messageId}: ${e.reason}`));
      client.on("fatal", (e) => peer.errors.push(`fatal: ${e.code} ${e.message}`));
      client.on("message", (m) => {
        peer.received.set(m.messageId, (peer.received.get(m.messageId) ?? 0) + 1);
        const ids = peer.texts.get(m.text) ?? new Set<string>();
        ids.add(m.messageId);
        peer.texts.set(m.text, ids);
        const n = Number(/ #(\d+)$/.exec(m.text)?.[1] ?? -1);
        const arrived = peer.order.get(m.from) ?? [];
        arrived.push(n);
        peer.order.set(m.from, arrived);
      });
      peers.push(peer);
    }
  }
  await Promise.all(peers.map((p) => p.client.connect()));
  return {
    peers,
    async close() {
      await Promise.all(peers.map((p) => p.client.close()));
      for (const h of homes) rmSync(h, { recursive: true, force: true });
    },
  };
}

/**
 * Every peer sends a message every `intervalMs` until stopped, in turn to the whole mesh and to one
 * other peer; each text is unique (`<peer name> #<n>`, n counting up), and a send counts once the broker
 * answered `sent` (stored). With `window` > 1 a peer keeps up to that many sends unanswered (the client
 * library's ordered outbox carries them), so a fault catches several in flight and order is put to the test.
 */
export class MessageLoad {
  readonly sent: SentMessage[] = [];
  readonly errors: string[] = [];
  /** Sends answered only after their peer's connection was lost and made again (resent with the same id). */
  acrossReconnect = 0;
  private running = true;
  private readonly loops: Promise<void>[];

  /** Sends not yet answered, per peer. */
  readonly unanswered = new Map<Peer, Set<Promise<void>>>();

  constructor(
    private readonly peers: Peer[],
    intervalMs: number,
    private readonly window = 1,
    /** Put in every text, so the texts of two loads over the same peers differ. */
    private readonly tag = "",
  ) {
    this.loops = peers.map((p, i) => this.drive(p, i, intervalMs));
  }

  private async drive(peer: Peer, index: number, intervalMs: number): Promise<void> {
    const others = this.peers.filter((p) => p !== peer);
    const open = new Set<Promise<void>>();
    this.unanswered.set(peer, open);
    for (let n = 0; this.running; n++) {
      while (open.size >= this.window) await Promise.race(open);
      const one = this.sendOne(peer, others, index, n).finally(() => open.delete(one));
      open.add(one);
      if (this.window === 1) await one;
      await sleep(intervalMs);
    }
    await Promise.all(open);
  }

  private async sendOne(peer: Peer, others: Peer[], index: number, n: number): Promise<void> {
    const text = `${peer.name}${this.tag ? ` ${this.tag}` : ""} #${n}`;
    const direct = n % 2 === 1 ? others[(index + n) % others.length] : undefined;
    try {
      const welcomes = peer.welcomes;
      const receipt = await peer.client.send(text, direct ? { to: [direct.memberId] } : {});
      if (peer.welcomes > welcomes) this.acrossReconnect += 1;
      const to = direct ? [direct.memberId] : others.map((p) => p.memberId);
      this.sent.push({ messageId: receipt.messageId, from: peer.memberId, text, to, recipients: receipt.recipients });
    } catch (error) {
      this.errors.push(`${text}: ${(error as Error).message}`);
    }
  }

  /** Sends under way now, over all peers. */
  inFlight(): number {
    return [...this.unanswered.values()].reduce((n, s) => n + s.size, 0);
  }

  /** Stops sending; resolves once every send under way has its `sent` (it waits through a reconnect). */
  async stop(timeoutMs = 60_000): Promise<void> {
    this.running = false;
    const all = Promise.all(this.loops);
    const late = sleep(timeoutMs).then(() => "late" as const);
    if ((await Promise.race([all, late])) === "late")
      this.errors.push(`sends still unanswered ${timeoutMs} ms after the load stopped`);
  }

  /** The messages each peer should hold by now (member id → message ids). */
  expected(): Map<string, Set<string>> {
    const out = new Map<string, Set<string>>();
    for (const m of this.sent) {
      for (const to of m.to) {
        const ids = out.get(to) ?? new Set<string>();
        ids.add(m.messageId);
        out.set(to, ids);
      }
    }
    return out;
  }
}

/** Waits until every peer received every message addressed to it (or the deadline passes). */
export async function allDelivered(load: MessageLoad, peers: Peer[], timeoutMs = 60_000): Promise<boolean> {
  const expected = load.expected();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const missing = peers.some((p) => [...(expected.get(p.memberId) ?? [])].some((id) => !p.received.has(id)));
    if (!missing) return true;
    if (Date.now() > deadline) return false;
    await sleep(200);
  }
}

/**
 * The streams (sender → recipient) whose messages did not arrive in the order they were sent, each with
 * the first place it broke; and how many streams were checked.
 */
export function outOfOrder(peers: Peer[]): { broken: string[]; streams: number } {
  const names = new Map(peers.map((p) => [p.memberId, p.name]));
  const broken: string[] = [];
  let streams = 0;
  for (const p of peers) {
    for (const [from, numbers] of p.order) {
      streams += 1;
      const at = numbers.findIndex((n, i) => i > 0 && n <= (numbers[i - 1] as number));
      if (at > 0) broken.push(`${names.get(from) ?? from} → ${p.name}: #${numbers[at - 1]} then #${numbers[at]}`);
    }
  }
  return { broken, streams };
}

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
        errors: [],
      };
      client.on("connected", () => (peer.welcomes += 1));
      client.on("duplicate", () => (peer.duplicates += 1));
      client.on("undecryptable", (e) => peer.errors.push(`undecryptable ${e.messageId}: ${e.reason}`));
      client.on("fatal", (e) => peer.errors.push(`fatal: ${e.code} ${e.message}`));
      client.on("message", (m) => {
        peer.received.set(m.messageId, (peer.received.get(m.messageId) ?? 0) + 1);
        const ids = peer.texts.get(m.text) ?? new Set<string>();
        ids.add(m.messageId);
        peer.texts.set(m.text, ids);
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
 * other peer; each text is unique, and a send counts once the broker answered `sent` (stored).
 */
export class MessageLoad {
  readonly sent: SentMessage[] = [];
  readonly errors: string[] = [];
  /** Sends answered only after their peer's connection was lost and made again (resent with the same id). */
  acrossReconnect = 0;
  private running = true;
  private readonly loops: Promise<void>[];

  constructor(
    private readonly peers: Peer[],
    intervalMs: number,
  ) {
    this.loops = peers.map((p, i) => this.drive(p, i, intervalMs));
  }

  private async drive(peer: Peer, index: number, intervalMs: number): Promise<void> {
    const others = this.peers.filter((p) => p !== peer);
    for (let n = 0; this.running; n++) {
      const text = `${peer.name} #${n}`;
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
      await sleep(intervalMs);
    }
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

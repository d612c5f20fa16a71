import type { Socket } from "node:net";
import type { WebSocket } from "ws";
import type { TServerFrame } from "../protocol/frames";

/** One accepted, authenticated connection. */
export interface PeerConnection {
  readonly id: string;
  readonly meshId: string;
  readonly memberId: string;
  /** Changes while connected when a manager changes it (broker/cluster/events.ts). */
  role: string;
  readonly displayName: string;
  /**
   * False for a connection that only sends (`receive=0` at connect: the one-shot command line): no
   * message is pushed to it, so none waits unacknowledged on it. Absent means it receives.
   */
  readonly receives?: boolean;
  /** The newest whole-mesh key epoch this connection was told of (welcome, then `key_epoch` frames). */
  keyEpoch: number;
  readonly ws: WebSocket;
  readonly connectedAt: Date;
  /** Cleared before each heartbeat ping, set again by the pong. */
  alive: boolean;
  badFrames: number;
  /** Messages sent on this connection and not yet acknowledged (for redelivery after the ack timeout). */
  inflight: Map<string, { sentAt: number; attempt: number }>;
  /**
   * True while messages go to this connection from the database (the queue after connecting, or after
   * the connection fell behind its buffer budget) rather than as they arrive.
   */
  replaying: boolean;
  /** A live message came for it while replaying: the replay reads once more before it ends. */
  missed: boolean;
  /**
   * The lowest seq (or a lower bound of it) of the live messages that came while replaying: a message
   * may become visible after the replay has read past its seq (stores commit out of seq order across
   * nodes), and the next read starts below it.
   */
  missedFrom?: bigint;
}

/** One mesh's connections on this node: all of them, and by member. */
interface MeshConnections {
  all: readonly PeerConnection[];
  byMember: Map<string, readonly PeerConnection[]>;
}

const NONE: readonly PeerConnection[] = [];

/**
 * This node's connections grouped by mesh (fan-out works per mesh), and by member within it. The lists
 * are replaced, not changed, when a connection comes or goes (rare beside the lookups of every message):
 * a lookup hands out the list itself, without a copy, and a list handed out never changes under its reader.
 */
export class ConnectionRegistry {
  private readonly byMesh = new Map<string, MeshConnections>();
  private total = 0;

  add(conn: PeerConnection): void {
    let mesh = this.byMesh.get(conn.meshId);
    if (!mesh) {
      mesh = { all: NONE, byMember: new Map() };
      this.byMesh.set(conn.meshId, mesh);
    }
    if (mesh.all.includes(conn)) return;
    mesh.all = [...mesh.all, conn];
    mesh.byMember.set(conn.memberId, [...(mesh.byMember.get(conn.memberId) ?? NONE), conn]);
    this.total += 1;
  }

  /** Removes a connection; false when it was not registered. */
  remove(conn: PeerConnection): boolean {
    const mesh = this.byMesh.get(conn.meshId);
    if (!mesh?.all.includes(conn)) return false;
    mesh.all = mesh.all.filter((c) => c !== conn);
    const ofMember = (mesh.byMember.get(conn.memberId) ?? NONE).filter((c) => c !== conn);
    if (ofMember.length > 0) mesh.byMember.set(conn.memberId, ofMember);
    else mesh.byMember.delete(conn.memberId);
    this.total -= 1;
    if (mesh.all.length === 0) this.byMesh.delete(conn.meshId);
    return true;
  }

  countInMesh(meshId: string): number {
    return this.byMesh.get(meshId)?.all.length ?? 0;
  }

  /** Connections of one mesh (a member may hold several). */
  inMesh(meshId: string): readonly PeerConnection[] {
    return this.byMesh.get(meshId)?.all ?? NONE;
  }

  /** Connections of one member of a mesh. */
  ofMember(meshId: string, memberId: string): readonly PeerConnection[] {
    return this.byMesh.get(meshId)?.byMember.get(memberId) ?? NONE;
  }

  *all(): IterableIterator<PeerConnection> {
    for (const mesh of this.byMesh.values()) yield* mesh.all;
  }

  get size(): number {
    return this.total;
  }
}

/** Sends a frame when the socket is open; frames to a closing socket are dropped. */
export function sendFrame(conn: Pick<PeerConnection, "ws">, frame: TServerFrame): void {
  sendText(conn, JSON.stringify(frame));
}

/** Sends a frame already serialised (a Buffer holds its UTF-8 text), as a text frame. */
export function sendText(conn: Pick<PeerConnection, "ws">, text: string | Buffer): void {
  if (conn.ws.readyState !== conn.ws.OPEN) return;
  corkForTick(conn.ws);
  if (typeof text === "string") conn.ws.send(text);
  else conn.ws.send(text, { binary: false });
}

/** Sockets corked during the current tick, uncorked together once it ends. */
const corked = new Set<Socket>();
function uncorkAll(): void {
  for (const socket of corked) if (!socket.destroyed) socket.uncork();
  corked.clear();
}

/**
 * Holds a connection's writes until the current tick ends, so the frames a batch sends to one peer
 * (its `sent` answers, the messages it receives) leave in one write instead of one system call each.
 * ws corks around each frame itself; corks nest, and the data goes when the outermost is lifted.
 */
export function corkForTick(ws: WebSocket): void {
  const socket = (ws as unknown as { _socket?: Socket })._socket;
  if (!socket || socket.destroyed || corked.has(socket)) return;
  socket.cork();
  corked.add(socket);
  if (corked.size === 1) process.nextTick(uncorkAll);
}

/** Sends one frame to many connections, serialised once (a mesh-wide event reaches every member). */
export function broadcastFrame(
  conns: Iterable<Pick<PeerConnection, "ws" | "id">>,
  frame: TServerFrame,
  exceptConnectionId?: string,
): void {
  let text: string | undefined;
  for (const conn of conns) {
    if (conn.id === exceptConnectionId || conn.ws.readyState !== conn.ws.OPEN) continue;
    text ??= JSON.stringify(frame);
    corkForTick(conn.ws);
    conn.ws.send(text);
  }
}

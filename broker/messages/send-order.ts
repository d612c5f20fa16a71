import type { PeerConnection } from "../ws/registry";

/** Refusals after which the peer sends the same frame again (docs/protocol.md, "Messages"). */
export type RetryableRefusal = "SERVICE_UNAVAILABLE" | "TOO_MANY_REQUESTS";

/** The first send of a connection that was refused and not sent again yet. */
export interface SendBlock {
  /** The frame id the peer must send again first. */
  id: string;
  /** Its arrival number on the connection. */
  seq: number;
  code: RetryableRefusal;
}

/** What one connection's sends need for their order. */
export interface ConnectionSends {
  /** Arrival number of the last send frame that was taken or blocks (retries take a new one). */
  seq: number;
  /** Sends taken and not answered yet. */
  pending: number;
  /** Gate numbers: the last one given to a taken send, and the one whose turn it is. */
  taken: number;
  turn: number;
  /** Sends waiting at the gate, and those that gave up their turn before it came, by gate number. */
  waiting: Map<number, () => void>;
  passed: Set<number>;
  block: SendBlock | undefined;
}

/** One send on its way: its connection's state, its arrival number and its gate number. */
export interface SendTicket {
  readonly sends: ConnectionSends;
  readonly seq: number;
  readonly gate: number;
}

/**
 * Keeps the sends of each connection in their order (docs/protocol.md, "Messages: at-least-once, in
 * order"): they enter the store's batches in the order they arrived (a gate, so a send whose recipients
 * take longer to read never falls behind a later one), and once one is refused with a retryable
 * refusal, none that arrived after it is stored until the peer sends the refused one again: later ones
 * are refused the same way, whether they arrive meanwhile or are already on their way to the store.
 * The refused send lifts the block only when it comes again while nothing else of the connection is
 * in progress, so nothing that was on its way before can overtake it.
 */
export class SendOrder {
  private readonly states = new WeakMap<PeerConnection, ConnectionSends>();

  private of(conn: PeerConnection): ConnectionSends {
    let sends = this.states.get(conn);
    if (!sends) {
      sends = { seq: 0, pending: 0, taken: 0, turn: 1, waiting: new Map(), passed: new Set(), block: undefined };
      this.states.set(conn, sends);
    }
    return sends;
  }

  /** The connection's block, if one of its sends was refused and has not come again. */
  blockOf(conn: PeerConnection): SendBlock | undefined {
    return this.states.get(conn)?.block;
  }

  /**
   * A send frame arrives: a ticket when it may go on, or the block that refuses it (with the block's
   * code: the earlier send must come again first).
   */
  arrive(conn: PeerConnection, id: string): SendTicket | SendBlock {
    const sends = this.of(conn);
    const block = sends.block;
    if (block) {
      if (block.id !== id || sends.pending > 0) return block;
      sends.block = undefined;
    }
    sends.seq += 1;
    sends.taken += 1;
    sends.pending += 1;
    return { sends, seq: sends.seq, gate: sends.taken };
  }

  /** A send frame refused before it was taken (a frame limit): it blocks the ones after it. */
  refusedAtArrival(conn: PeerConnection, id: string, code: RetryableRefusal): void {
    const sends = this.of(conn);
    sends.seq += 1;
    sends.block ??= { id, seq: sends.seq, code };
  }

  /** The block that holds this send back (an earlier send was refused), if any. */
  heldBy(ticket: SendTicket): SendBlock | undefined {
    const block = ticket.sends.block;
    return block && block.seq < ticket.seq ? block : undefined;
  }

  /** The send was refused with a retryable refusal: it blocks the ones after it (the earliest refused one blocks). */
  refused(ticket: SendTicket, id: string, code: RetryableRefusal): void {
    const sends = ticket.sends;
    if (!sends.block || ticket.seq < sends.block.seq) sends.block = { id, seq: ticket.seq, code };
  }

  /** Resolves once every send taken before this one has gone through the gate or given up its turn. */
  gate(ticket: SendTicket): Promise<void> | undefined {
    const sends = ticket.sends;
    if (sends.turn === ticket.gate) return undefined;
    return new Promise((resolve) => sends.waiting.set(ticket.gate, resolve));
  }

  /** This send went through the gate, or will not go through it: once, for every ticket. */
  pass(ticket: SendTicket): void {
    const sends = ticket.sends;
    if (sends.turn !== ticket.gate) {
      if (ticket.gate > sends.turn) sends.passed.add(ticket.gate);
      return;
    }
    sends.turn += 1;
    while (sends.passed.delete(sends.turn)) sends.turn += 1;
    const next = sends.waiting.get(sends.turn);
    if (next) {
      sends.waiting.delete(sends.turn);
      next();
    }
  }

  /** The send's answer went out. */
  done(ticket: SendTicket): void {
    ticket.sends.pending -= 1;
  }
}

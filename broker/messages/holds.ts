/** Statuses that hold normal and low messages (urgent and high are delivered whatever the status). */
export const BUSY_STATUSES: ReadonlySet<string> = new Set(["working", "dnd"]);
const HELD_PRIORITIES: ReadonlySet<string> = new Set(["normal", "low"]);

const busy = (status: string | null | undefined) => status != null && BUSY_STATUSES.has(status);

/**
 * Priority holds of one node (docs/protocol.md, "Priorities"): the status of each member connected
 * here, and whether a message waits for its recipient to be free.
 */
export class PriorityHolds {
  private readonly statuses = new Map<string, string | null>();

  constructor(private readonly holdMaxMs = Number.POSITIVE_INFINITY) {}

  knows(memberId: string): boolean {
    return this.statuses.has(memberId);
  }

  forget(memberId: string): void {
    this.statuses.delete(memberId);
  }

  /** Records a member's status; true when it was busy and no longer is (what was held may go now). */
  set(memberId: string, status: string | null): boolean {
    const was = this.statuses.get(memberId) ?? null;
    this.statuses.set(memberId, status);
    return busy(was) && !busy(status);
  }

  /** A normal or low message to a busy member, not held too long yet. */
  held(memberId: string, message: { priority: string; createdAtMs: number }): boolean {
    if (!HELD_PRIORITIES.has(message.priority) || !busy(this.statuses.get(memberId))) return false;
    return Date.now() - message.createdAtMs < this.holdMaxMs;
  }
}

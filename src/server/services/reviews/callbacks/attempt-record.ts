/** What one attempt did, as recorded: the delivery's new state and the due time of its next attempt. */
export interface AttemptRecord {
  deliveryId: string;
  /** The delivery's attempt count before this attempt (the record is guarded on it). */
  previous: number;
  state: "pending" | "delivered" | "failed";
  status: number | null;
  error: string | null;
  durationMs: number;
  next: Date | null;
  deliveredAt: Date | null;
}

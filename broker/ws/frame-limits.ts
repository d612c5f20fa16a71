import { TokenBucketLimiter } from "../../src/server/core/token-bucket";
import type { PeerConnection } from "./registry";

// Rate limits of a connection's frames (docs/protocol.md, "Frame limits"): `send`, `set_status`, `peers`
// and `message_status` (at the rate of `peers`) each have a token bucket per connection and a bucket twice as large per member (all of the
// member's connections on this node together). A frame over either limit is answered with an error
// frame (TOO_MANY_REQUESTS); a connection that keeps sending past its limits — more than `strikes`
// refused frames in a minute — is closed `rate_limited` (4429).

export type LimitedFrame = "send" | "set_status" | "peers" | "message_status";

export interface FrameRateOptions {
  /** `send` frames per second per connection (burst as large). */
  sendPerSecond: number;
  /** `set_status` frames per minute per connection. */
  statusPerMinute: number;
  /** `peers` frames per minute per connection (and as many `message_status` frames). */
  peersPerMinute: number;
  /** Refused frames per minute a connection may send before it is closed `rate_limited`. */
  strikesPerMinute: number;
  sweepAfterMs?: number;
}

export type FrameVerdict = "ok" | "limited" | "close";

export class FrameLimits {
  private readonly perConnection: Record<LimitedFrame, TokenBucketLimiter>;
  private readonly perMember: Record<LimitedFrame, TokenBucketLimiter>;
  private readonly strikes: TokenBucketLimiter;

  constructor(options: FrameRateOptions) {
    const perMinute: Record<LimitedFrame, number> = {
      send: options.sendPerSecond * 60,
      set_status: options.statusPerMinute,
      peers: options.peersPerMinute,
      message_status: options.peersPerMinute,
    };
    const burst: Record<LimitedFrame, number> = {
      send: options.sendPerSecond,
      set_status: options.statusPerMinute,
      peers: options.peersPerMinute,
      message_status: options.peersPerMinute,
    };
    const bucket = (capacity: number, refillPerMinute: number) =>
      new TokenBucketLimiter({ capacity, refillPerMinute, sweepAfterMs: options.sweepAfterMs });
    const each = (factor: number) =>
      Object.fromEntries(
        (Object.keys(perMinute) as LimitedFrame[]).map((t) => [t, bucket(burst[t] * factor, perMinute[t] * factor)]),
      ) as Record<LimitedFrame, TokenBucketLimiter>;
    this.perConnection = each(1);
    this.perMember = each(2);
    this.strikes = bucket(options.strikesPerMinute, options.strikesPerMinute);
  }

  /** Takes one frame of `type` for the connection and its member. */
  take(conn: Pick<PeerConnection, "id" | "memberId">, type: LimitedFrame): FrameVerdict {
    // The member's bucket is taken only when the connection's allows, so one connection over its own
    // limit does not drain its member's other connections.
    if (this.perConnection[type].take(conn.id).allowed && this.perMember[type].take(conn.memberId).allowed) return "ok";
    return this.strikes.take(conn.id).allowed ? "limited" : "close";
  }

  /** Drops idle buckets (also done as they are used). */
  sweep(): void {
    for (const l of [...Object.values(this.perConnection), ...Object.values(this.perMember), this.strikes]) l.sweep();
  }
}

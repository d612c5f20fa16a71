// The live side of a run's lease (docs/review-engine.md, "Leases"). A claim gives a run a short lease
// (`lease_until` = the database's now + the lease); the worker renews it every heartbeat while the run
// lives. The worker counts its lease lost, and stops its run, as soon as either
//  - a renewal finds the row no longer held by this run (another worker took it over, or it ended), or
//  - no renewal succeeded for 90 % of a lease, counted from the moment the last good one (or the claim)
//    was SENT: the database stamped that lease after the sending, so the worker's deadline passes a
//    tenth of a lease before the lease in the database (room for a late timer), and a worker cut off
//    from the database stops its run before another worker can take the run over.
// Every write of the run is fenced besides (guarded on its attempt): a late one is refused.

/** The worker gives its lease up a 1/LEASE_MARGIN of a lease before the database's lease passes. */
const LEASE_MARGIN = 10;

/** Why a run was stopped: its lease was lost (the abort reason of `LeaseKeeper.signal`). */
export class LeaseLost extends Error {
  constructor(readonly why: "taken" | "expired") {
    super(`lease lost (${why})`);
    this.name = "LeaseLost";
  }
}

export interface LeaseKeeper {
  /** Aborted (with a LeaseLost reason) once the lease is lost. */
  readonly signal: AbortSignal;
  readonly lost: boolean;
  /** Stops renewing (the run ended). */
  stop: () => void;
}

export interface KeepLeaseOptions {
  /** Renews the lease in the database: true when the row is still this run's, false when it is not. */
  renew: () => Promise<boolean>;
  leaseMs: number;
  heartbeatMs: number;
  /** `performance.now()` taken before the claim was sent (the claim's lease runs from no earlier). */
  claimedAt: number;
  /** Told of a renewal that failed (the database is away): the lease is lost if none succeeds in time. */
  onRenewError?: (error: unknown) => void;
}

/** Renews a run's lease every heartbeat (one renewal in flight at most) until `stop`, or until it is lost. */
export function keepLease(opts: KeepLeaseOptions): LeaseKeeper {
  const controller = new AbortController();
  let stopped = false;
  let inFlight = false;
  let deadline: NodeJS.Timeout | undefined;
  const lose = (why: LeaseLost["why"]) => {
    if (stopped || controller.signal.aborted) return;
    clearInterval(beat);
    clearTimeout(deadline);
    controller.abort(new LeaseLost(why));
  };
  const holdUntil = (sentAt: number) => {
    clearTimeout(deadline);
    const holdMs = opts.leaseMs - opts.leaseMs / LEASE_MARGIN;
    deadline = setTimeout(() => lose("expired"), Math.max(0, sentAt + holdMs - performance.now()));
  };
  holdUntil(opts.claimedAt);
  const beat = setInterval(() => {
    if (inFlight || stopped || controller.signal.aborted) return;
    inFlight = true;
    const sentAt = performance.now();
    opts.renew().then(
      (held) => {
        inFlight = false;
        if (stopped || controller.signal.aborted) return;
        if (held) holdUntil(sentAt);
        else lose("taken");
      },
      (error: unknown) => {
        inFlight = false;
        opts.onRenewError?.(error);
      },
    );
  }, opts.heartbeatMs);
  return {
    signal: controller.signal,
    get lost() {
      return controller.signal.aborted;
    },
    stop: () => {
      stopped = true;
      clearInterval(beat);
      clearTimeout(deadline);
    },
  };
}

import pg from "pg";
import { backoff } from "./backoff";

export interface DbMonitorOptions {
  url: string;
  /** Pause between pings while the database is up. */
  intervalMs?: number;
  /** First retry delay once a ping fails; doubles per failure up to maxBackoffMs. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** Called when the state flips. */
  onChange?: (up: boolean, error?: unknown) => void;
  /** One ping (default: SELECT 1 on its own connection); tests of the retry rule replace it. */
  ping?: () => Promise<void>;
  /** Runs the next ping after `ms` (default: an unref'd setTimeout); tests of the retry rule control it. */
  schedule?: (next: () => void, ms: number) => NodeJS.Timeout | undefined;
}

/**
 * Pings PostgreSQL in the background and keeps a current up/down state, retrying with exponential
 * backoff while the database is down (Document 2: /health answers 503 while down).
 */
export class DbMonitor {
  private up = false;
  private timer: NodeJS.Timeout | undefined;
  private failures = 0;
  private stopped = false;
  private readonly pool: pg.Pool;

  constructor(private readonly options: DbMonitorOptions) {
    this.pool = new pg.Pool({
      connectionString: options.url,
      max: 1,
      idleTimeoutMillis: 10_000,
      connectionTimeoutMillis: 2_000,
    });
    // An idle client that loses its server must not crash the process; the next ping notices.
    this.pool.on("error", () => {});
  }

  get isUp(): boolean {
    return this.up;
  }

  /** Pings once now, then keeps pinging. */
  async start(): Promise<boolean> {
    await this.ping();
    return this.up;
  }

  private async ping(): Promise<void> {
    if (this.stopped) return;
    let ok = false;
    let failure: unknown;
    try {
      if (this.options.ping) await this.options.ping();
      else await this.pool.query({ text: "SELECT 1", query_timeout: 2_000 } as pg.QueryConfig);
      ok = true;
    } catch (error) {
      failure = error;
    }
    if (ok !== this.up) this.options.onChange?.(ok, failure);
    this.up = ok;
    this.failures = ok ? 0 : this.failures + 1;
    const base = this.options.intervalMs ?? 5_000;
    const delay = ok
      ? base
      : backoff(this.failures - 1, {
          baseMs: this.options.initialBackoffMs ?? 250,
          capMs: this.options.maxBackoffMs ?? 10_000,
          jitter: "none",
        });
    if (!this.stopped) {
      const next = () => void this.ping();
      if (this.options.schedule) this.timer = this.options.schedule(next, delay);
      else {
        this.timer = setTimeout(next, delay);
        this.timer.unref();
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.pool.end().catch(() => {});
  }
}

/** The health document of Document 2: status, db, version, gitSha, uptime (seconds). */
export function healthDocument(opts: { dbUp: boolean; version: string; gitSha: string; startedAt: number }) {
  return {
    status: opts.dbUp ? ("ok" as const) : ("degraded" as const),
    db: opts.dbUp ? ("up" as const) : ("down" as const),
    version: opts.version,
    gitSha: opts.gitSha,
    uptime: Math.round((Date.now() - opts.startedAt) / 1000),
  };
}

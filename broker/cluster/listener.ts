import pg from "pg";
import { backoff } from "../../src/server/core/backoff";
import type { Logger } from "../../src/server/core/logger";
import { safeErrorFields } from "../http/request";

export interface ListenerOptions {
  url: string;
  channels: readonly string[];
  log: Logger;
  initialBackoffMs: number;
  maxBackoffMs: number;
  onNotification(channel: string, payload: string): void;
  /** Called after every (re)connection, so a node can catch up on what it missed while away. */
  onConnected?(): void;
}

/**
 * One dedicated connection that LISTENs on the broker's channels and reconnects with exponential
 * back-off when the database goes away (a pooled connection cannot hold a LISTEN).
 */
export class NotificationListener {
  private client: pg.Client | undefined;
  private stopped = false;
  private failures = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ListenerOptions) {}

  /** Connects once (a failure schedules retries, it does not throw). */
  async start(): Promise<void> {
    await this.connect();
  }

  get connected(): boolean {
    return this.client !== undefined;
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({
      connectionString: this.options.url,
      connectionTimeoutMillis: 2_000,
      keepAlive: true,
    });
    client.on("error", () => this.lost(client));
    client.on("end", () => this.lost(client));
    client.on("notification", (n) => {
      if (n.payload !== undefined) this.options.onNotification(n.channel, n.payload);
    });
    try {
      await client.connect();
      for (const channel of this.options.channels) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      if (this.stopped) {
        await client.end().catch(() => {});
        return;
      }
      this.client = client;
      if (this.failures > 0) this.options.log.info({ event: "listen_restored" }, "notification listener reconnected");
      this.failures = 0;
      this.options.onConnected?.();
    } catch (error) {
      this.options.log.warn(
        { event: "listen_failed", ...safeErrorFields(error) },
        "notification listener could not connect",
      );
      await client.end().catch(() => {});
      this.retry();
    }
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.options.log.warn({ event: "listen_lost" }, "notification listener lost its connection");
    void client.end().catch(() => {});
    this.retry();
  }

  private retry(): void {
    if (this.stopped) return;
    this.failures += 1;
    const delay = backoff(this.failures - 1, {
      baseMs: this.options.initialBackoffMs,
      capMs: this.options.maxBackoffMs,
      jitter: "none",
    });
    this.timer = setTimeout(() => void this.connect(), delay);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}

// The job side of the cluster test: a callback receiver, a client that submits jobs and batches
// through both web processes over REST (resubmitting with the same Idempotency-Key on the other web
// process when one does not answer), a burst against a key's rate limit, and what the database says
// about the jobs afterwards.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Db } from "../../src/server/core/db";
import { verifyStandardWebhook, type Received } from "../../src/test/review-fixtures";
import { sleep, type ClusterProcess } from "./processes";

export interface Callback extends Received {
  webhookId: string;
}

/** A callback receiver on loopback that answers 200 after a short delay (so attempts are in flight when a worker dies). */
export async function startCallbackReceiver(delayMs = 150) {
  const received: Callback[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      received.push({ headers: req.headers, body, status: 200, webhookId: String(req.headers["webhook-id"]) });
      setTimeout(() => res.writeHead(200).end(), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
  };
}

export interface Submitted {
  kind: "job" | "batch";
  /** The job's id, or the batch's. */
  id: string;
  jobIds: string[];
  /** Answers that came from a replay of the Idempotency-Key (the first request's answer was lost). */
  replayed: boolean;
}

interface LoadOptions {
  webs: ClusterProcess[];
  key: string;
  version: string;
  callbackUrl: string;
  /** Idempotency keys of this run start with it. */
  run: string;
}

/**
 * Submits a job (every sixth time a batch of three) every `intervalMs` until stopped, alternating
 * between the web processes. A request without an answer (its web process was killed, or a 5xx)
 * goes again, with the same Idempotency-Key and body, to the next web process, until one answers.
 */
export class JobLoad {
  readonly submitted: Submitted[] = [];
  /** Submissions refused (a 4xx other than 429) or never answered: the test expects none. */
  readonly errors: string[] = [];
  /** Requests that got no answer or a 5xx and were sent again. */
  resent = 0;
  private n = 0;
  private running = true;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly loop: Promise<void>;

  constructor(
    private readonly o: LoadOptions,
    intervalMs: number,
  ) {
    this.loop = this.drive(intervalMs);
  }

  private async drive(intervalMs: number): Promise<void> {
    while (this.running) {
      const p = this.submit(this.n++)
        .catch((error: unknown) => void this.errors.push((error as Error).message))
        .finally(() => this.inFlight.delete(p));
      this.inFlight.add(p);
      await sleep(intervalMs);
    }
  }

  private async submit(n: number): Promise<void> {
    const place = (i: number) => `p-${String(((n * 3 + i) % 40) + 1).padStart(4, "0")}`;
    const target = (i: number) => ({ platform_id: place(i), scraper_version: this.o.version, review_limit: 60 });
    const batch = n % 6 === 5;
    const path = batch ? "/scrape/platform-reviews/batch" : "/scrape/platform-reviews";
    const body = JSON.stringify(
      batch
        ? { requester_client_id: "cluster", callback_url: this.o.callbackUrl, jobs: [0, 1, 2].map(target) }
        : { requester_client_id: "cluster", callback_url: this.o.callbackUrl, ...target(0) },
    );
    const headers = {
      authorization: `Bearer ${this.o.key}`,
      "content-type": "application/json",
      "idempotency-key": `${this.o.run}-${n}`,
    };
    const deadline = Date.now() + 120_000;
    for (let attempt = 0; ; attempt++) {
      const web = this.o.webs[(n + attempt) % this.o.webs.length] as ClusterProcess;
      const answer = await fetch(`${web.url}/api${path}`, {
        method: "POST",
        headers,
        body,
        signal: AbortSignal.timeout(30_000),
      })
        .then(async (res) => ({ res, json: (await res.json()) as { id: string; job_ids?: string[] } }))
        .catch(() => undefined);
      if (answer?.res.status === 200) {
        const { res, json } = answer;
        const replayed = res.headers.get("idempotent-replayed") === "true";
        this.submitted.push({
          kind: batch ? "batch" : "job",
          id: json.id,
          jobIds: batch ? (json.job_ids ?? []) : [json.id],
          replayed,
        });
        return;
      }
      if (answer && answer.res.status < 500 && answer.res.status !== 429) {
        throw new Error(`submission ${n} refused by ${web.name}: ${answer.res.status} ${JSON.stringify(answer.json)}`);
      }
      if (Date.now() > deadline) throw new Error(`submission ${n} got no answer from any web process`);
      this.resent += 1;
      await sleep(200);
    }
  }

  /** Stops submitting and waits for the submissions under way (each answered, or the error of one). */
  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    await Promise.all([...this.inFlight]);
  }
}

/**
 * `count` requests with a key limited to `limit` per minute, `concurrency` at a time, alternating
 * between the web processes. Returns the statuses and how long the burst took (the bucket refills one
 * token every 60/limit seconds, which the caller allows for).
 */
export async function rateLimitBurst(webs: ClusterProcess[], key: string, count: number, concurrency = 4) {
  const started = Date.now();
  const answers: { status: number; retryAfter: string | null; policy: string | null }[] = [];
  for (let first = 0; first < count; first += concurrency) {
    const wave = Array.from({ length: Math.min(concurrency, count - first) }, async (_, i) => {
      const web = webs[(first + i) % webs.length] as ClusterProcess;
      const res = await fetch(`${web.url}/api/jobs?pageSize=1`, {
        headers: { authorization: `Bearer ${key}` },
        signal: AbortSignal.timeout(30_000),
      });
      await res.body?.cancel();
      return {
        status: res.status,
        retryAfter: res.headers.get("retry-after"),
        policy: res.headers.get("ratelimit-policy"),
      };
    });
    answers.push(...(await Promise.all(wave)));
  }
  return { answers, elapsedMs: Date.now() - started };
}

const TERMINAL = ["succeeded", "failed", "cancelled"];

/** True once every job of the key is terminal, every batch ended and every callback delivery delivered. */
export async function jobsSettled(db: Db, apiKeyId: string): Promise<boolean> {
  // One after the other, in the order the engine ends things: a job's end and its callback row commit
  // together, and a batch ends with its last job. Counted in parallel, the callbacks could be counted
  // before a job's end committed and the jobs after it, and an unsent callback would pass as settled.
  const open = await db.job.count({ where: { apiKeyId, status: { notIn: ["succeeded", "failed", "cancelled"] } } });
  if (open > 0) return false;
  const batches = await db.batch.count({ where: { apiKeyId, completedAt: null } });
  if (batches > 0) return false;
  const pending = await db.callbackDelivery.count({
    where: { state: { not: "delivered" }, OR: [{ job: { apiKeyId } }, { batch: { apiKeyId } }] },
  });
  return pending === 0;
}

/** What the database holds about the key's jobs, batches, terminal events and callback deliveries. */
export async function jobRecords(db: Db, apiKeyId: string) {
  const jobs = await db.job.findMany({
    where: { apiKeyId },
    select: { id: true, status: true, batchId: true, attempts: true, callbackState: true },
  });
  const ids = jobs.map((j) => j.id);
  const events = await db.jobEvent.findMany({
    where: { jobId: { in: ids } },
    select: { jobId: true, status: true, detail: true },
  });
  const batches = await db.batch.findMany({
    where: { apiKeyId },
    select: { id: true, completedAt: true, status: true },
  });
  const deliveries = await db.callbackDelivery.findMany({
    where: { OR: [{ jobId: { in: ids } }, { batchId: { in: batches.map((b) => b.id) } }] },
    select: { webhookId: true, kind: true, jobId: true, batchId: true, state: true, attempts: true },
  });
  const terminalEvents = events.filter((e) => TERMINAL.includes(e.status));
  const recovered = events.filter((e) => (e.detail as { recovered?: boolean } | null)?.recovered === true).length;
  return { jobs, batches, deliveries, terminalEvents, recovered };
}

/** Callbacks whose Standard Webhooks signature does not verify with the key's secret. */
export async function badSignatures(secret: string, received: Callback[]): Promise<string[]> {
  const bad: string[] = [];
  for (const r of received) if (!(await verifyStandardWebhook(secret, r))) bad.push(r.webhookId);
  return bad;
}

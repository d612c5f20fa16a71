// Issue 15, point 1: every review out, through the REST paths as a client calls them (the procedures
// through the REST handler, the exports through their route handlers' builder) with API keys, against a real
// worker that collected the reviews from a local platform. Only 127.0.0.1 servers.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { reviewExport } from "@/server/api/review-export-route";
import { testDb, uid } from "@/test/helpers";
import { restWithKey } from "@/test/rest";
import { makeContext, makeKey, makeVersion, startJsonPlatform, testSettings, waitFor } from "@/test/review-fixtures";
import { workerForFile } from "@/test/review-worker";
import type { Actor } from "@/server/services/actor";
import { AppError } from "@/server/core/errors";
import { createJob } from "./create-jobs";
import { exportLimit, exportStream } from "./review-export";
import { EXPORT_COLUMNS } from "./review-out";
import { storeJobReviews } from "./review-store";
import { ZCreateJobInput } from "./create-jobs.schema";
import { serviceContext, withActor } from "@/server/services/context";

const db = testDb();
const deps = makeContext(db, testSettings());
workerForFile(deps);

const rest = (key: string, method: string, path: string, body?: unknown) => restWithKey(db, key, method, path, body);

async function exported(kind: "job" | "batch", id: string, key: string | null, query = "") {
  const req = new Request(`http://test/api/${kind === "job" ? "jobs" : "batches"}/${id}/reviews/export${query}`, {
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });
  // The route handler as its route file builds it, with no session (API keys only).
  const handler = reviewExport(kind, async () => null);
  const params: Record<string, string> = kind === "job" ? { job_id: id } : { batch_id: id };
  const res = await handler(req, { params: Promise.resolve(params) });
  // Decoded keeping a byte-order mark (Response.text() drops one).
  return { res, text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(await res.arrayBuffer()) };
}

/** A succeeded job of `apiKeyId` with `thousands`×1,000 reviews of about `textLength` characters: an export that takes a while to read. */
async function slowJob(apiKeyId: string, placeId: string, thousands = 2, textLength = 2_000) {
  const job = await db.job.create({ data: { apiKeyId, requesterClientId: "c", status: "succeeded", placeId } });
  const long = "y".repeat(textLength);
  const placeKey = uid("place");
  for (let from = 0; from < thousands * 1_000; from += 1_000) {
    await db.$transaction(
      (tx) =>
        storeJobReviews(
          tx,
          job.id,
          { platform: "platform", origin: "http://127.0.0.1:1", placeKey },
          Array.from({ length: 1_000 }, (_, k) => ({
            externalId: `r${from + k}`,
            author: null,
            rating: 3,
            text: `${from + k} ${long}`,
            language: "en",
            publishedAt: null,
            ownerReply: null,
          })),
        ),
      { timeout: 60_000 },
    );
  }
  return job;
}

type Item = { id: string; job_id: string; external_id: string; text: string | null };

/** Reads a page path to the end through next_cursor; returns every item and the number of pages. */
async function readAll(key: string, path: string, limit: number) {
  const items: Item[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await rest(
      key,
      "GET",
      `${path}?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    expect(page.status).toBe(200);
    items.push(...(page.json.items as Item[]));
    cursor = page.json.next_cursor as string | null;
    pages++;
    if (pages > 100) throw new Error("cursor does not end");
  } while (cursor);
  return { items, pages };
}

describe("reviews out", () => {
  it("reads a 1,200-review job completely through the cursor and exports the same rows as CSV and NDJSON", async () => {
    const platform = await startJsonPlatform({ reviews: 1200 });
    try {
      const { id: apiKeyId, key } = await makeKey(db, ["jobs:read", "jobs:write"]);
      const v = await makeVersion(db, "http-json", { platformUrl: platform.url });
      // Created by the service on this test's work queue (the REST path would use the web's queue).
      const actor: Actor = { kind: "apiKey", apiKeyId, scopes: ["jobs:read", "jobs:write"] };
      const jobId = (
        await createJob(
          withActor(deps, actor),
          ZCreateJobInput.parse({
            requester_client_id: "c",
            platform_id: uid("place"),
            review_limit: 1200,
            scraper_version: v.version,
          }),
        )
      ).value.id;
      await waitFor(async () =>
        (await db.job.findUniqueOrThrow({ where: { id: jobId } })).status === "succeeded" ? true : undefined,
      );

      const all = await readAll(key, `/jobs/${jobId}/reviews`, 500);
      expect(all.pages).toBe(3);
      expect(all.items).toHaveLength(1200);
      expect(new Set(all.items.map((r) => r.external_id)).size).toBe(1200);
      expect(all.items.every((r) => r.job_id === jobId)).toBe(true);
      // By review id (the keyset), and the default page is 100.
      expect(all.items.map((r) => r.id)).toEqual([...all.items.map((r) => r.id)].sort());
      const first = await rest(key, "GET", `/jobs/${jobId}/reviews`);
      expect((first.json.items as Item[]).length).toBe(100);
      // The job's own answer keeps a short preview.
      const detail = await rest(key, "GET", `/jobs/${jobId}`);
      expect((detail.json.reviews as unknown[]).length).toBe(20);

      const csv = await exported("job", jobId, key);
      expect(csv.res.status).toBe(200);
      expect(csv.res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(csv.res.headers.get("content-disposition")).toContain(`job-${jobId}-reviews-`);
      expect(csv.res.headers.get("ratelimit")).toBeTruthy();
      const rows = parse(csv.text, { columns: true }) as Record<string, string>[];
      expect(Object.keys(rows[0]!)).toEqual([...EXPORT_COLUMNS]);
      expect(rows).toHaveLength(1200);
      expect(rows.map((r) => r.id)).toEqual(all.items.map((r) => r.id));

      const ndjson = await exported("job", jobId, key, "?format=ndjson");
      expect(ndjson.res.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
      const lines = ndjson.text
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as Item);
      expect(lines).toHaveLength(1200);
      expect(lines.map((r) => r.id)).toEqual(all.items.map((r) => r.id));
      expect(lines[0]).toEqual(JSON.parse(JSON.stringify(all.items[0])));

      // With bom=true, a byte-order mark for spreadsheet programs; the parse with bom gives the same rows.
      const withBom = await exported("job", jobId, key, "?bom=true");
      expect(withBom.text.charCodeAt(0)).toBe(0xfeff);
      expect((parse(withBom.text, { columns: true, bom: true }) as unknown[]).length).toBe(1200);
    } finally {
      await platform.close();
    }
  }, 60_000);

  it("pages a batch job by job, across jobs with no reviews, with cursors that cross job boundaries", async () => {
    const { id: apiKeyId, key } = await makeKey(db, ["jobs:read"]);
    const counts = [5, 0, 12, 0, 0, 3];
    const batch = await db.batch.create({ data: { apiKeyId, requesterClientId: "c", totalJobs: counts.length } });
    const jobIds: string[] = [];
    for (const [i, n] of counts.entries()) {
      const job = await db.job.create({
        data: {
          apiKeyId,
          batchId: batch.id,
          batchIndex: i,
          requesterClientId: "c",
          status: "succeeded",
          placeId: `p${i}`,
        },
      });
      jobIds.push(job.id);
      await db.$transaction((tx) =>
        storeJobReviews(
          tx,
          job.id,
          { platform: "platform", origin: "http://127.0.0.1:1", placeKey: uid("place") },
          Array.from({ length: n }, (_, k) => ({
            externalId: `r${k}`,
            author: null,
            rating: 4,
            text: `job ${i} review ${k}`,
            language: "en",
            publishedAt: null,
            ownerReply: null,
          })),
        ),
      );
    }
    for (const limit of [1, 4, 5, 7, 20, 1000]) {
      const all = await readAll(key, `/batches/${batch.id}/reviews`, limit);
      const texts = all.items.map((r) => r.text ?? "");
      expect([...texts].sort(), `limit ${limit}`).toEqual(
        counts.flatMap((n, i) => Array.from({ length: n }, (_, k) => `job ${i} review ${k}`)).sort(),
      );
      // Job after job in the batch's order; within a job, by review id.
      const jobsInOrder = texts.map(jobOf);
      expect(jobsInOrder).toEqual([...jobsInOrder].sort((a, b) => a - b));
      expect(all.items.map((r) => r.id)).toEqual(
        [...all.items]
          .sort((a, b) => jobOf(a.text ?? "") - jobOf(b.text ?? "") || (a.id < b.id ? -1 : 1))
          .map((r) => r.id),
      );
      expect(all.pages).toBe(Math.max(1, Math.ceil(20 / limit)));
      expect(all.items.every((r) => r.job_id === jobIds[jobOf(r.text ?? "")])).toBe(true);
    }
    const csv = parse((await exported("batch", batch.id, key)).text, { columns: true }) as Record<string, string>[];
    expect(csv).toHaveLength(20);
    const ndjson = (await exported("batch", batch.id, key, "?format=ndjson")).text.trimEnd().split("\n");
    expect(ndjson).toHaveLength(20);
  });

  it("quotes text as RFC 4180 and guards formulas, and answers an empty job with the header alone", async () => {
    const { id: apiKeyId, key } = await makeKey(db, ["jobs:read"]);
    const job = await db.job.create({ data: { apiKeyId, requesterClientId: "c", status: "succeeded", placeId: "p" } });
    const texts = [
      '=HYPERLINK("http://x")',
      "+1 and -1",
      "@SUM(A1)",
      'a "quoted", comma\r\nand a line break',
      "plain ünïcödé ✓",
    ];
    await db.$transaction((tx) =>
      storeJobReviews(
        tx,
        job.id,
        { platform: "platform", origin: "http://127.0.0.1:1", placeKey: uid("place") },
        texts.map((text, k) => ({
          externalId: `r${k}`,
          author: k === 0 ? "-Mallory" : null,
          rating: null,
          text,
          language: null,
          publishedAt: null,
          ownerReply: null,
        })),
      ),
    );
    const { text } = await exported("job", job.id, key);
    expect(text).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(text).toContain(",'-Mallory,");
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.text).sort()).toEqual(
      [
        "'+1 and -1",
        '\'=HYPERLINK("http://x")',
        "'@SUM(A1)",
        'a "quoted", comma\r\nand a line break',
        "plain ünïcödé ✓",
      ].sort(),
    );
    const empty = await db.job.create({
      data: { apiKeyId, requesterClientId: "c", status: "succeeded", placeId: "q" },
    });
    expect((await exported("job", empty.id, key)).text).toBe(`${EXPORT_COLUMNS.join(",")}\r\n`);
    expect((await exported("job", empty.id, key, "?format=ndjson")).text).toBe("");
    expect((await rest(key, "GET", `/jobs/${empty.id}/reviews`)).json).toEqual({ items: [], next_cursor: null });
  });

  it("gives the connection back when a reader leaves mid-export, and cuts the download when the database drops", async () => {
    const { id: apiKeyId } = await makeKey(db, ["jobs:read"]);
    const actor: Actor = { kind: "apiKey", apiKeyId, scopes: ["jobs:read"] };
    const job = await db.job.create({
      data: { apiKeyId, requesterClientId: "c", status: "succeeded", placeId: "big" },
    });
    // 60 MB of CSV: more than the socket buffers between the database and this process hold, so the
    // copy is still running when its backend is killed below.
    const long = "x".repeat(4_000);
    const placeKey = uid("place");
    for (let from = 0; from < 15_000; from += 5_000) {
      await db.$transaction(
        (tx) =>
          storeJobReviews(
            tx,
            job.id,
            { platform: "platform", origin: "http://127.0.0.1:1", placeKey },
            Array.from({ length: 5_000 }, (_, k) => ({
              externalId: `r${from + k}`,
              author: null,
              rating: 3,
              text: `${from + k} ${long}`,
              language: "en",
              publishedAt: null,
              ownerReply: null,
            })),
          ),
        { timeout: 60_000 },
      );
    }
    // More readers that leave after one chunk than the pool has connections (10): each copy's connection is discarded, none kept busy.
    for (let i = 0; i < 15; i++) {
      const reader = (
        await exportStream(serviceContext(actor, { db }), { job_id: job.id, format: i % 2 ? "ndjson" : "csv" })
      ).getReader();
      expect((await reader.read()).done).toBe(false);
      await reader.cancel();
    }
    expect(await db.job.count({ where: { id: job.id } })).toBe(1);
    await waitFor(
      async () =>
        (
          await db.$queryRaw<
            { n: number }[]
          >`SELECT count(*)::int AS n FROM pg_stat_activity WHERE position(${`export job:${job.id}`} IN query) > 0 AND state = 'active'`
        )[0]!.n === 0
          ? true
          : undefined,
      10_000,
      "copies stopped",
    );

    // The copy's backend is killed mid-stream: the stream errors (a cut download), it does not end quietly.
    const reader = (await exportStream(serviceContext(actor, { db }), { job_id: job.id, format: "csv" })).getReader();
    expect((await reader.read()).done).toBe(false);
    await db.$queryRaw`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE position(${`export job:${job.id}`} IN query) > 0 AND pid <> pg_backend_pid()`;
    const drained = (async () => {
      for (;;) if ((await reader.read()).done) return "ended";
    })();
    await expect(drained).rejects.toThrow();
    expect(await db.job.count({ where: { id: job.id } })).toBe(1);
  });

  it("runs at most a third of the pool's connections as exports at once, and answers 429 beyond", async () => {
    const { id: apiKeyId, key } = await makeKey(db, ["jobs:read"]);
    const job = await slowJob(apiKeyId, "busy");
    expect(exportLimit()).toBe(3);
    // Three principals (one export each): every slot of the process.
    const readers = [];
    for (let i = 0; i < 3; i++) {
      const admin: Actor = { kind: "administrator", userId: uid("admin") };
      const reader = (await exportStream(serviceContext(admin, { db }), { job_id: job.id, format: "csv" })).getReader();
      expect((await reader.read()).done).toBe(false);
      readers.push(reader);
    }
    const busy = await exported("job", job.id, key);
    expect(busy.res.status).toBe(429);
    expect(busy.res.headers.get("retry-after")).toBe("5");
    expect(JSON.parse(busy.text)).toMatchObject({ error: { code: "TOO_MANY_REQUESTS", message: "export_busy" } });
    for (const reader of readers) await reader.cancel();
    await waitFor(
      async () => ((await exported("job", job.id, key, "?format=ndjson")).res.status === 200 ? true : undefined),
      5_000,
      "a slot again",
    );
  });

  // Issue 41, attack 5: one jobs:read key reading slowly held every slot of the process.
  it("gives each key at most one export at a time, so one slow key does not starve another", async () => {
    const slow = await makeKey(db, ["jobs:read"]);
    const other = await makeKey(db, ["jobs:read"]);
    const slowActor: Actor = { kind: "apiKey", apiKeyId: slow.id, scopes: ["jobs:read"] };
    const job = await slowJob(slow.id, "hog");
    const small = await db.job.create({
      data: { apiKeyId: other.id, requesterClientId: "c", status: "succeeded", placeId: "small" },
    });
    // The slow key opens three exports and reads one chunk of each (the ones it is given).
    const readers = [];
    const refusals: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      try {
        const reader = (
          await exportStream(serviceContext(slowActor, { db }), { job_id: job.id, format: "csv" })
        ).getReader();
        expect((await reader.read()).done).toBe(false);
        readers.push(reader);
      } catch (error) {
        refusals.push(error);
      }
    }
    try {
      // Another key still gets its export.
      const theirs = await exported("job", small.id, other.key);
      expect(theirs.res.status).toBe(200);
      // The slow key's second export at once is refused, with Retry-After.
      const second = await exported("job", job.id, slow.key);
      expect(second.res.status).toBe(429);
      expect(second.res.headers.get("retry-after")).toBe("5");
      expect(JSON.parse(second.text)).toMatchObject({ error: { code: "TOO_MANY_REQUESTS", message: "export_busy" } });
      expect(readers).toHaveLength(1);
      expect(refusals).toHaveLength(2);
    } finally {
      for (const reader of readers) await reader.cancel();
    }
    // Its slot is back once the first export ends.
    await waitFor(
      async () => ((await exported("job", small.id, other.key)).res.status === 200 ? true : undefined),
      5_000,
      "the other key again",
    );
  });

  it("cuts a reader that stops reading past the idle timeout, and frees its slot", async () => {
    const { id: apiKeyId, key } = await makeKey(db, ["jobs:read"]);
    const actor: Actor = { kind: "apiKey", apiKeyId, scopes: ["jobs:read"] };
    // Larger than what the sockets' buffers on loopback take in while nobody reads (a few MB).
    const job = await slowJob(apiKeyId, "idle", 4, 4_000);
    const settings = { ...serviceContext(actor, { db }).settings };
    const review = testSettings({ EXPORT_IDLE_TIMEOUT_MS: "300" });
    let cut: Error | undefined;
    const server = http.createServer((_req, res) => {
      const ctx = serviceContext(actor, {
        db,
        settings: { publicBaseUrl: settings.publicBaseUrl, brokerUrl: settings.brokerUrl, review },
      });
      exportStream(ctx, { job_id: job.id, format: "csv" }).then(
        (body) => {
          res.writeHead(200, { "content-type": "text/csv" });
          const source = Readable.fromWeb(body as import("node:stream/web").ReadableStream<Uint8Array>);
          // As the route's Response does: a stream that errors ends the answer without its last chunk.
          source.on("error", (error) => {
            cut = error;
            res.destroy();
          });
          source.pipe(res);
        },
        (error: unknown) => {
          res.writeHead(error instanceof AppError ? error.httpStatus : 500);
          res.end(error instanceof AppError ? error.message : "failed");
        },
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      // A real download that reads one chunk, then stops reading (its socket no longer drains).
      const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
        http.get({ host: "127.0.0.1", port, path: "/" }, resolve).on("error", reject);
      });
      expect(response.statusCode).toBe(200);
      await new Promise((resolve) => response.once("data", resolve));
      response.pause();
      await waitFor(async () => cut, 15_000, "the idle reader cut");
      expect(cut?.message).toBe("export reader idle");
      // Its slot is free: the same key exports again.
      expect((await exported("job", job.id, key, "?format=ndjson")).res.status).toBe(200);
      // The reader, reading again, finds its download cut short (never a body that ends cleanly).
      const ending = await new Promise<string>((resolve) => {
        response.once("aborted", () => resolve("aborted"));
        response.once("error", () => resolve("aborted"));
        response.once("end", () => resolve("ended"));
        response.resume();
      });
      expect(ending).toBe("aborted");
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("keeps each key to its own jobs and answers the spec's codes", async () => {
    const owner = await makeKey(db, ["jobs:read"]);
    const other = await makeKey(db, ["jobs:read"]);
    const writer = await makeKey(db, ["jobs:write"]);
    const admin = await makeKey(db, ["admin"]);
    const job = await db.job.create({
      data: { apiKeyId: owner.id, requesterClientId: "c", status: "succeeded", placeId: "p" },
    });
    const batch = await db.batch.create({ data: { apiKeyId: owner.id, requesterClientId: "c", totalJobs: 0 } });
    await db.$transaction((tx) =>
      storeJobReviews(tx, job.id, { platform: "platform", origin: "http://127.0.0.1:1", placeKey: uid("place") }, [
        { externalId: "r", author: null, rating: 5, text: "mine", language: null, publishedAt: null, ownerReply: null },
      ]),
    );

    expect((await rest(other.key, "GET", `/jobs/${job.id}/reviews`)).json).toMatchObject({
      error: { code: "NOT_FOUND", message: "job_not_found" },
    });
    expect((await rest(other.key, "GET", `/batches/${batch.id}/reviews`)).json).toMatchObject({
      error: { code: "NOT_FOUND", message: "batch_not_found" },
    });
    expect((await exported("job", job.id, other.key)).res.status).toBe(404);
    expect((await exported("batch", batch.id, other.key)).res.status).toBe(404);
    expect((await exported("job", job.id, writer.key)).res.status).toBe(403);
    expect(JSON.parse((await exported("job", job.id, writer.key)).text)).toMatchObject({
      error: { code: "FORBIDDEN", message: "missing_scope", details: { required: "jobs:read" } },
    });
    expect((await exported("job", job.id, null)).res.status).toBe(401);
    expect((await exported("job", job.id, "rk_not-a-key")).res.status).toBe(401);
    expect((await exported("job", "not-a-uuid", owner.key)).res.status).toBe(404);
    const badFormat = await exported("job", job.id, owner.key, "?format=xlsx");
    expect(badFormat.res.status).toBe(400);
    expect(JSON.parse(badFormat.text)).toMatchObject({
      error: { code: "BAD_REQUEST", details: { issues: [{ path: "format", message: expect.any(String) }] } },
    });
    expect((await rest(admin.key, "GET", `/jobs/${job.id}/reviews`)).json).toMatchObject({ items: [{ text: "mine" }] });

    for (const cursor of [
      "x",
      Buffer.from("1:not-a-uuid").toString("base64url"),
      Buffer.from("-1:00000000-0000-0000-0000-000000000000").toString("base64url"),
    ]) {
      const bad = await rest(owner.key, "GET", `/jobs/${job.id}/reviews?cursor=${cursor}`);
      expect(bad.status, cursor).toBe(400);
      expect(bad.json).toMatchObject({ error: { code: "BAD_REQUEST", message: "invalid_cursor" } });
    }
    for (const limit of [0, 1001, "many"])
      expect((await rest(owner.key, "GET", `/jobs/${job.id}/reviews?limit=${limit}`)).status).toBe(400);
    // A cursor past the end is an empty last page, not an error.
    const past = Buffer.from("9:00000000-0000-0000-0000-000000000000").toString("base64url");
    expect((await rest(owner.key, "GET", `/jobs/${job.id}/reviews?cursor=${past}`)).json).toEqual({
      items: [],
      next_cursor: null,
    });
  });
});

function jobOf(text: string): number {
  return Number(/^job (\d+) review \d+$/.exec(text)![1]);
}

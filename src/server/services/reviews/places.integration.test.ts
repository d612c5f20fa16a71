// Issue 15, point 2 (and the place part of point 1): a place record per (platform origin, place key)
// with the facts the platform shows, each job's coverage block and stop reason for every case, and
// the places API, through a real worker against the real demo platform. Only 127.0.0.1 servers.
import { describe, expect, it } from "vitest";
import { selectReviews } from "@/demo-platform/query";
import { handleRest } from "@/server/api/openapi/rest-handler";
import { createContext } from "@/server/api/trpc";
import type { ApiKeyActor } from "@/server/services/actor";
import { demoPlatformForFile } from "@/test/demo-platform-for-file";
import { testDb } from "@/test/helpers";
import { makeContext, makeKey, makeVersion, startTestWorker, testSettings, waitFor } from "@/test/review-fixtures";
import { workerForFile } from "@/test/review-worker";
import { parse } from "csv-parse/sync";
import { reviewExport } from "@/server/api/review-export-route";
import { createJob } from "./create-jobs";
import { EXPORT_COLUMNS } from "./review-out";
import { ZCreateJobInput } from "./create-jobs.schema";
import { withActor } from "@/server/services/context";

const db = testDb();
const deps = makeContext(db, testSettings());
workerForFile(deps);
// Eight places: p-0008 is a small one (every eighth place is).
const demo = demoPlatformForFile();

// REST answers read loosely (the assertions check their shape).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

async function client() {
  const k = await makeKey(db, ["jobs:read", "jobs:write"]);
  return { key: k.key, actor: { kind: "apiKey", apiKeyId: k.id, scopes: ["jobs:read", "jobs:write"] } as ApiKeyActor };
}

async function rest(key: string, path: string) {
  const req = new Request(`http://test/api${path}`, { headers: { authorization: `Bearer ${key}` } });
  const res = await handleRest(req, () => createContext({ db, headers: req.headers }));
  return { status: res.status, json: (await res.json()) as Json };
}

/** Runs one job to its end (on `on`'s worker) and answers its REST view. */
async function ran(on: typeof deps, c: Awaited<ReturnType<typeof client>>, input: Record<string, unknown>) {
  const job = (await createJob(withActor(on, c.actor), ZCreateJobInput.parse({ requester_client_id: "c", ...input })))
    .value;
  await waitFor(
    async () =>
      ["succeeded", "failed", "cancelled"].includes((await db.job.findUniqueOrThrow({ where: { id: job.id } })).status)
        ? true
        : undefined,
    30_000,
    "job ended",
  );
  return (await rest(c.key, `/jobs/${job.id}`)).json.job as Json;
}

describe("places and coverage", () => {
  it("records the place's facts and each job's coverage: limit, end of list, since reached", async () => {
    const c = await client();
    const json = await makeVersion(db, "http-json", { platformUrl: demo.base });
    const browser = await makeVersion(db, "browser-v1", { platformUrl: demo.base });
    const p1 = demo.platform.dataset.place("p-0001")!;
    const newest = selectReviews(demo.platform.dataset.reviews("p-0001"), { sort: "newest" });

    const limited = await ran(deps, c, { platform_id: "p-0001", review_limit: 25, scraper_version: json.version });
    expect(limited.coverage).toEqual({
      collected: 25,
      platform_total: p1.reviewCount,
      share: Math.round((25 / p1.reviewCount) * 1000) / 1000,
      oldest_review_at: newest[24]!.publishedAt.toISOString(),
      stop_reason: "limit",
    });
    expect(limited.place_id).toEqual(expect.any(String));

    // The same place read by the browser scraper is the same record.
    const byBrowser = await ran(deps, c, {
      place_url: `${demo.base}/places/p-0001`,
      review_limit: 10,
      scraper_version: browser.version,
    });
    expect(byBrowser.place_id).toBe(limited.place_id);
    expect(byBrowser.coverage).toMatchObject({ collected: 10, platform_total: p1.reviewCount, stop_reason: "limit" });

    const place = await rest(c.key, `/places/${limited.place_id}`);
    expect(place.json).toMatchObject({
      id: limited.place_id,
      platform_id: "p-0001",
      name: p1.name,
      address: p1.address,
      rating: p1.rating,
      review_total: p1.reviewCount,
      histogram: {
        "1": p1.histogram[0],
        "2": p1.histogram[1],
        "3": p1.histogram[2],
        "4": p1.histogram[3],
        "5": p1.histogram[4],
      },
      collected_reviews: 25,
      latest_job: { id: byBrowser.id },
    });

    const small = demo.platform.dataset.place("p-0008")!;
    const all = await ran(deps, c, {
      place_url: `${demo.base}/places/p-0008?layout=1`,
      review_limit: 500,
      scraper_version: json.version,
    });
    expect(all.coverage).toMatchObject({
      collected: small.reviewCount,
      platform_total: small.reviewCount,
      share: 1,
      stop_reason: "end_of_list",
    });

    const since = newest[30]!.publishedAt;
    const recent = await ran(deps, c, {
      platform_id: "p-0001",
      review_limit: 400,
      since: since.toISOString(),
      scraper_version: json.version,
    });
    expect(recent.coverage).toMatchObject({
      collected: 31,
      stop_reason: "since_reached",
      oldest_review_at: since.toISOString(),
    });
  }, 90_000);

  it("says why a failed job stopped: blocked, layout changed, timeout", async () => {
    const c = await client();
    const json = await makeVersion(db, "http-json", { platformUrl: demo.base });
    const browser = await makeVersion(db, "browser-v1", { platformUrl: demo.base });
    const blocked = await ran(deps, c, { platform_id: "p-blocked", scraper_version: json.version });
    expect(blocked).toMatchObject({
      status: "failed",
      error_class: "blocked",
      coverage: { stop_reason: "blocked", collected: 0 },
    });
    const changed = await ran(deps, c, {
      place_url: `${demo.base}/places/p-0002?layout=2`,
      scraper_version: browser.version,
    });
    expect(changed).toMatchObject({
      status: "failed",
      error_class: "layout_changed",
      coverage: { stop_reason: "layout_changed" },
    });
    // A run that times out, once: its own queue and worker with a 300 ms timeout and one run.
    const quick = makeContext(
      db,
      testSettings({ JOB_QUEUE: `quick-${Date.now().toString(36)}`, JOB_TIMEOUT_MS: "300", JOB_MAX_ATTEMPTS: "1" }),
    );
    const stop = await startTestWorker(quick);
    try {
      const slow = await ran(quick, c, {
        place_url: `${demo.base}/places/p-0001?latency=2000`,
        scraper_version: json.version,
      });
      expect(slow).toMatchObject({ status: "failed", error_class: "timeout", coverage: { stop_reason: "timeout" } });
    } finally {
      await stop();
    }
  }, 90_000);

  it("lists a key's places only, and its reviews of a place filtered and paged", async () => {
    const c = await client();
    const other = await client();
    const json = await makeVersion(db, "http-json", { platformUrl: demo.base });
    const job = await ran(deps, c, { platform_id: "p-0003", review_limit: 60, scraper_version: json.version });
    const placeId = job.place_id as string;

    const mine = await rest(c.key, "/places?pageSize=100");
    expect(mine.json.items.map((p: { id: string }) => p.id)).toContain(placeId);
    expect((await rest(other.key, "/places?pageSize=100")).json.items.map((p: { id: string }) => p.id)).not.toContain(
      placeId,
    );
    expect(await rest(other.key, `/places/${placeId}`)).toMatchObject({
      status: 404,
      json: { error: { message: "place_not_found" } },
    });
    expect((await rest(other.key, `/places/${placeId}/reviews`)).status).toBe(404);
    expect(
      (
        await rest(c.key, `/places?q=${encodeURIComponent(demo.platform.dataset.place("p-0003")!.name)}`)
      ).json.items.some((p: { id: string }) => p.id === placeId),
    ).toBe(true);

    const collected = selectReviews(demo.platform.dataset.reviews("p-0003"), { sort: "newest" }).slice(0, 60);
    const pages: Json[] = [];
    let cursor: string | null = null;
    do {
      const page: Json = (await rest(c.key, `/places/${placeId}/reviews?limit=25${cursor ? `&cursor=${cursor}` : ""}`))
        .json;
      pages.push(...page.items);
      cursor = page.next_cursor;
    } while (cursor);
    expect(pages.map((r) => r.external_id).sort()).toEqual(collected.map((r) => r.id).sort());
    expect(pages.every((r) => r.job_id === job.id)).toBe(true);
    // The fields beside each review came through the scraper, the store and the API as the platform shows them.
    const shown = new Map(collected.map((r) => [r.id, r]));
    for (const item of pages) {
      const r = shown.get(item.external_id)!;
      expect(item, item.external_id).toMatchObject({
        date_precision: "exact",
        owner_reply_at: r.ownerReplyAt?.toISOString() ?? null,
        helpful: r.helpful,
        photos: r.photos.map((p) => `${demo.base}${p}`),
        reviewer_url: r.reviewer ? `${demo.base}${r.reviewer.path}` : null,
        reviewer_review_count: r.reviewer?.reviewCount ?? null,
        edited_at: r.editedAt?.toISOString() ?? null,
        translated_text: r.translation?.text ?? null,
        translated_language: r.translation?.language ?? null,
      });
    }
    expect(
      pages.some((r) => r.photos.length > 0) &&
        pages.some((r) => r.translated_text) &&
        pages.some((r) => r.owner_reply_at),
    ).toBe(true);

    const fives = (await rest(c.key, `/places/${placeId}/reviews?rating=5&limit=1000`)).json.items;
    expect(fives.length).toBe(collected.filter((r) => r.rating === 5).length);
    const cut = collected[20]!.publishedAt;
    const since = (await rest(c.key, `/places/${placeId}/reviews?since=${cut.toISOString()}&limit=1000`)).json.items;
    expect(since.length).toBe(collected.filter((r) => r.publishedAt >= cut).length);
    const until = (await rest(c.key, `/places/${placeId}/reviews?until=${cut.toISOString()}&limit=1000`)).json.items;
    expect(until.length).toBe(collected.filter((r) => r.publishedAt < cut).length);
    const lang = collected[0]!.language;
    expect((await rest(c.key, `/places/${placeId}/reviews?language=${lang}&limit=1000`)).json.items.length).toBe(
      collected.filter((r) => r.language === lang).length,
    );
    const word = (collected.find((r) => r.text)!.text as string)
      .split(" ")
      .find((w) => w.length > 5)!
      .replace(/[^\p{L}]/gu, "");
    const q = (await rest(c.key, `/places/${placeId}/reviews?q=${encodeURIComponent(word)}&limit=1000`)).json.items;
    expect(q.length).toBe(
      collected.filter(
        (r) =>
          (r.text ?? "").toLowerCase().includes(word.toLowerCase()) ||
          (r.author ?? "").toLowerCase().includes(word.toLowerCase()),
      ).length,
    );
    // The export: the same set with the same filters, as CSV and NDJSON.
    const exported = async (query: string, key = c.key) => {
      const req = new Request(`http://test/api/places/${placeId}/reviews/export?${query}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const res = await reviewExport("place", async () => null)(req, {
        params: Promise.resolve({ place_id: placeId }),
      });
      return { status: res.status, text: await res.text() };
    };
    const csv = parse((await exported("format=csv")).text, { columns: true }) as { external_id: string }[];
    expect(csv.map((r) => r.external_id)).toEqual(pages.map((r) => r.external_id));
    const ndjson = (await exported("format=ndjson&rating=5")).text
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Json);
    expect(ndjson.map((r) => r.id)).toEqual(fives.map((r: Json) => r.id));
    expect((await exported("format=csv", other.key)).status).toBe(404);
    expect((await exported("format=csv&rating=9")).status).toBe(400);
    // Text that would break a statement is only text: no row matches, nothing else happens.
    for (const hostile of ["'); DROP TABLE reviews; --", "\\' OR 1=1 --", "%_\\"]) {
      expect((await rest(c.key, `/places/${placeId}/reviews?q=${encodeURIComponent(hostile)}`)).json).toEqual({
        items: [],
        next_cursor: null,
      });
      expect((await exported(`format=csv&q=${encodeURIComponent(hostile)}`)).text).toBe(
        `${EXPORT_COLUMNS.join(",")}\r\n`,
      );
    }
    expect(await db.review.count()).toBeGreaterThan(0);
    expect((await rest(c.key, `/places/${placeId}/reviews?rating=6`)).status).toBe(400);
    expect((await rest(c.key, `/places/${placeId}/reviews?q=${encodeURIComponent("a\u0000b")}`)).status).toBe(400);
    expect(
      (await rest(c.key, `/places/${placeId}/reviews?cursor=${Buffer.from("x:\u0000").toString("base64url")}`)).status,
    ).toBe(400);
    // A date-time without a zone is UTC.
    const noZone = cut.toISOString().replace("Z", "");
    expect((await rest(c.key, `/places/${placeId}/reviews?since=${noZone}&limit=1000`)).json.items.length).toBe(
      since.length,
    );
    expect((await rest(c.key, `/places/${placeId}/reviews?since=yesterday`)).status).toBe(400);
    expect((await rest(c.key, `/places/${placeId}/reviews?cursor=bad`)).json).toMatchObject({
      error: { message: "invalid_cursor" },
    });
  }, 60_000);
});

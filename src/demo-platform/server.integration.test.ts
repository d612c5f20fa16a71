import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { selectReviews } from "./query";
import { createDemoPlatform, type DemoPlatform } from "./server";

let platform: DemoPlatform;
let base: string;

beforeAll(async () => {
  platform = createDemoPlatform({ places: 10, adminToken: "admin-test" });
  base = await platform.listen(0);
});
afterAll(() => platform.close());

const admin = (path: string, init: RequestInit = {}) =>
  fetch(`${base}${path}`, {
    ...init,
    headers: { authorization: "Bearer admin-test", "content-type": "application/json", ...init.headers },
  });

describe("demo platform over HTTP", () => {
  it("answers health, the index and the place list", async () => {
    expect(await (await fetch(`${base}/health`)).json()).toMatchObject({ status: "ok", places: 13 });
    const index = await (await fetch(`${base}/`)).text();
    expect(index).toContain('href="/places/p-0001"');
    const list = (await (await fetch(`${base}/api/places`)).json()) as { places: { id: string; layout: number }[] };
    expect(list.places.find((p) => p.id === "p-0002")?.layout).toBe(2);
  });

  it("pages the JSON reviews with sort, lang and since, matching the dataset", async () => {
    const since = "2026-01-01T00:00:00.000Z";
    const expected = selectReviews(platform.dataset.reviews("p-0001"), {
      sort: "lowest",
      lang: "en",
      since: new Date(since),
    });
    const ids: string[] = [];
    for (let page: number | null = 1; page !== null;) {
      const res = await fetch(
        `${base}/api/places/p-0001/reviews?page=${page}&sort=lowest&lang=en&since=${since}&per_page=7`,
      );
      expect(res.status).toBe(200);
      const body = (await res.json()) as {
        nextPage: number | null;
        total: number;
        reviews: { id: string; rating: number }[];
      };
      expect(body.total).toBe(expected.length);
      ids.push(...body.reviews.map((r) => r.id));
      page = body.nextPage;
    }
    expect(ids).toEqual(expected.map((r) => r.id));
  });

  it("renders each layout's place page and fragments", async () => {
    const one = await (await fetch(`${base}/places/p-0001`)).text();
    expect(one).toContain('data-tab="reviews"');
    const two = await (await fetch(`${base}/places/p-0002`)).text();
    expect(two).toContain('data-section="reviews"');
    expect(two).not.toContain('data-tab="reviews"');
    const fragment = await fetch(`${base}/places/p-0002/reviews?page=1&layout=2`);
    expect(fragment.headers.get("x-next-page")).toBe("2");
    expect((await fragment.text()).match(/class="rv-item"/g)).toHaveLength(10);
  });

  it("answers 404 for an unknown place, 403 with a captcha for the blocked one, 400 for a bad query, 405 for POST", async () => {
    const missing = await fetch(`${base}/api/places/p-nope/reviews`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: "not_found" } });
    const blocked = await fetch(`${base}/places/p-blocked`);
    expect(blocked.status).toBe(403);
    expect(await blocked.text()).toContain('id="captcha"');
    expect((await fetch(`${base}/api/places/p-0001/reviews?sort=sideways`)).status).toBe(400);
    expect((await fetch(`${base}/api/places/p-0001/reviews?latency=-1`)).status).toBe(400);
    expect((await fetch(`${base}/api/places/p-0001`, { method: "POST" })).status).toBe(405);
  });

  it("forces a status or a layout by query knob", async () => {
    expect((await fetch(`${base}/api/places/p-0001/reviews?status=503`)).status).toBe(503);
    const forced = await fetch(`${base}/places/p-0001?status=429`);
    expect(forced.status).toBe(429);
    expect(forced.headers.get("retry-after")).toBe("30");
    expect(await (await fetch(`${base}/places/p-0001?layout=2`)).text()).toContain('data-section="reviews"');
    const renamed = await (await fetch(`${base}/places/p-0001/reviews?layout=1&markup=renamed`)).text();
    expect(renamed).toContain('class="review-entry"');
    expect(renamed).not.toContain('class="review-card"');
  });

  it("switches every place to layout 2 by admin setting, and reset restores it", async () => {
    expect((await fetch(`${base}/admin/settings`)).status).toBe(401);
    expect((await admin("/admin/settings", { method: "PUT", body: JSON.stringify({ layout: "3" }) })).status).toBe(400);
    const changed = await admin("/admin/settings", { method: "PUT", body: JSON.stringify({ layout: "2" }) });
    expect(await changed.json()).toMatchObject({ layout: "2" });
    expect(await (await fetch(`${base}/places/p-0001`)).text()).toContain('data-layout="2"');
    await admin("/admin/reset", { method: "POST" });
    expect(await (await fetch(`${base}/places/p-0001`)).text()).toContain('data-layout="1"');
  });
});

describe("rate limit", () => {
  it("answers 429 with Retry-After and RateLimit headers once the bucket is empty", async () => {
    const limited = createDemoPlatform({ places: 2, settings: { rateLimit: { capacity: 2, perMinute: 6 } } });
    const url = await limited.listen(0);
    try {
      const first = await fetch(`${url}/api/places/p-0001/reviews`);
      expect(first.status).toBe(200);
      expect(first.headers.get("ratelimit-policy")).toBe('"platform";q=2;w=20');
      expect(first.headers.get("ratelimit")).toMatch(/^"platform";r=1;t=\d+$/);
      expect((await fetch(`${url}/places/p-0001`)).status).toBe(200);
      const refused = await fetch(`${url}/api/places/p-0001/reviews`);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(await refused.json()).toMatchObject({ error: { code: "rate_limited" } });
      // Health and the index are not limited.
      expect((await fetch(`${url}/health`)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

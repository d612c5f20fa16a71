// Every scraper against the real demo platform (port 0) and real Chromium: both layouts, the target's
// limit/sort/since/language, and each error class provoked for real.
import { describe, expect, it } from "vitest";
import { selectReviews } from "@/demo-platform/query";
import { createDemoPlatform } from "@/demo-platform/server";
import { demoPlatformForFile } from "@/test/demo-platform-for-file";
import { freePort } from "@/test/helpers";
import { rejectionOf } from "@/test/rejection";
import {
  closeScrapers,
  getScraper,
  ScrapeError,
  setScraperConfig,
  type ScrapeContext,
  type ScrapedReview,
  type ScrapeTarget,
  type TScrapeErrorClass,
} from "./index";

const IMPLS = ["browser-v1", "browser-v2", "http-json"] as const;
// Eight places: p-0008 is a small one (every eighth place is).
const demo = demoPlatformForFile();

type Options = Partial<Pick<ScrapeContext, "signal" | "platformUrl" | "onProgress" | "onReviews" | "known">>;

function scrape(impl: string, target: Partial<ScrapeTarget>, { signal, platformUrl, ...rest }: Options = {}) {
  const scraper = getScraper(impl);
  if (!scraper) throw new Error(`no scraper ${impl}`);
  return scraper.scrape(
    { limit: 25, sort: "newest", ...target },
    { signal: signal ?? AbortSignal.timeout(30_000), platformUrl: platformUrl ?? demo.base, ...rest },
  );
}

/** What a correct scraper returns: the platform's own selection, in its order, cut at the limit. */
function expected(placeId: string, target: Partial<ScrapeTarget> & { limit: number }): ScrapedReview[] {
  const selected = selectReviews(demo.platform.dataset.reviews(placeId), {
    sort: target.sort ?? "newest",
    lang: target.language,
    since: target.since,
  });
  return selected.slice(0, target.limit).map((r) => ({
    externalId: r.id,
    author: r.author,
    rating: r.rating,
    text: r.text,
    language: r.language,
    publishedAt: r.publishedAt,
    ownerReply: r.ownerReply,
    datePrecision: "exact",
    ownerReplyAt: r.ownerReplyAt,
    helpful: r.helpful,
    photos: r.photos.map((p) => `${demo.base}${p}`),
    reviewerUrl: r.reviewer ? `${demo.base}${r.reviewer.path}` : null,
    reviewerReviewCount: r.reviewer?.reviewCount ?? null,
    editedAt: r.editedAt,
    translatedText: r.translation?.text ?? null,
    translatedLanguage: r.translation?.language ?? null,
  }));
}

describe("both scrapers against both layouts", () => {
  it.each([
    ["browser-v1", "p-0001"],
    ["browser-v2", "p-0001"],
    ["browser-v2", "p-0002"],
    ["http-json", "p-0001"],
    ["http-json", "p-0002"],
  ])("%s reads %s completely and exactly", async (impl, placeId) => {
    const progress: number[] = [];
    const result = await scrape(impl, { platformId: placeId }, { onProgress: (n) => progress.push(n) });
    expect(result.placeKey).toBe(`demo-platform:${placeId}`);
    expect(result.placeName).toBe(demo.platform.dataset.place(placeId)?.name);
    expect(result.reviews).toEqual(expected(placeId, { limit: 25 }));
    expect(progress.at(-1)).toBe(25);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it("browser-v1 fails on layout 2 with layout_changed (not transient)", async () => {
    const error = await rejectionOf(scrape("browser-v1", { platformId: "p-0002" }), ScrapeError);
    expect(error.errorClass).toBe("layout_changed");
    expect(error.transient).toBe(false);
  });

  it("drift: the platform-wide switch to layout 2 breaks browser-v1 on every place, browser-v2 keeps working", async () => {
    demo.platform.updateSettings({ layout: "2" });
    try {
      expect(
        (await rejectionOf(scrape("browser-v1", { platformId: "p-0001", limit: 5 }), ScrapeError)).errorClass,
      ).toBe("layout_changed");
      expect((await scrape("browser-v2", { platformId: "p-0001", limit: 5 })).reviews).toEqual(
        expected("p-0001", { limit: 5 }),
      );
    } finally {
      demo.platform.resetSettings();
    }
  });
});

describe("limit, sort, since and language are honoured", () => {
  const since = new Date("2026-02-01T00:00:00Z");
  it.each([
    ["browser-v1", "p-0001", "highest"],
    ["browser-v1", "p-0003", "relevant"],
    ["browser-v2", "p-0002", "lowest"],
    ["browser-v2", "p-0002", "relevant"],
    ["http-json", "p-0002", "highest"],
    ["http-json", "p-0001", "lowest"],
  ] as const)("%s on %s sorted by %s, English since February, 12 at most", async (impl, placeId, sort) => {
    const target = { platformId: placeId, limit: 12, sort, since, language: "en" };
    const result = await scrape(impl, target);
    expect(result.reviews.length).toBeGreaterThan(0);
    expect(result.reviews).toEqual(expected(placeId, target));
  });

  it.each(IMPLS)("%s takes a place URL, and a limit of 50 spans several pages", async (impl) => {
    const placeId = impl === "browser-v1" ? "p-0001" : "p-0002";
    const result = await scrape(impl, { placeUrl: `${demo.base}/places/${placeId}`, limit: 50, sort: "newest" });
    expect(result.reviews).toEqual(expected(placeId, { limit: 50 }));
  });
});

describe("edges of the target", () => {
  it.each(IMPLS)("%s returns every review of a small place when the limit is higher", async (impl) => {
    const small = demo.platform.dataset.places.find((p) => !p.special && p.reviewCount < 40);
    if (!small) throw new Error("the dataset has no small place");
    // The layout knob shows the place in layout 1, which browser-v1 needs.
    const result = await scrape(impl, { placeUrl: `${demo.base}/places/${small.id}?layout=1`, limit: 100 });
    expect(result.reviews).toEqual(expected(small.id, { limit: 100 }));
    expect(result.reviews).toHaveLength(small.reviewCount);
  });

  it.each(IMPLS)("%s returns no reviews when none match the language", async (impl) => {
    expect((await scrape(impl, { platformId: "p-0001", language: "fr" })).reviews).toEqual([]);
  });
});

describe("every error class, provoked", () => {
  async function classified(
    promise: Promise<unknown>,
    errorClass: TScrapeErrorClass,
    transient: boolean,
  ): Promise<ScrapeError> {
    const error = await rejectionOf(promise, ScrapeError);
    expect({ errorClass: error.errorClass, transient: error.transient }, error.message).toEqual({
      errorClass,
      transient,
    });
    return error;
  }
  const expectClass = async (
    promise: Promise<unknown>,
    errorClass: TScrapeErrorClass,
    transient: boolean,
  ): Promise<void> => {
    await classified(promise, errorClass, transient);
  };

  it.each(IMPLS)("%s: an unknown place is target_not_found", (impl) =>
    expectClass(scrape(impl, { platformId: "p-9999" }), "target_not_found", false),
  );

  it.each(IMPLS)("%s: the captcha place is blocked", (impl) =>
    expectClass(scrape(impl, { platformId: "p-blocked" }), "blocked", false),
  );

  it.each(IMPLS)("%s: a page answering 429 is rate_limited with its Retry-After", async (impl) => {
    const error = await classified(
      scrape(impl, { placeUrl: `${demo.base}/places/p-0001?status=429` }),
      "rate_limited",
      true,
    );
    expect(error.retryAfterSeconds).toBe(30);
  });

  it.each(IMPLS)("%s: the platform's own rate limit running out mid-scrape is rate_limited", async (impl) => {
    const limited = createDemoPlatform({ places: 2, settings: { rateLimit: { capacity: 1, perMinute: 1 } } });
    const url = await limited.listen(0);
    try {
      // One token: the place page (browser) or the first API page passes, the next request is refused.
      const error = await classified(
        scrape(impl, { platformId: "p-0001", limit: 150 }, { platformUrl: url }),
        "rate_limited",
        true,
      );
      expect(error.retryAfterSeconds).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  it.each(IMPLS)("%s: a slow page stopped by the signal is timeout", (impl) =>
    expectClass(scrape(impl, { platformId: "p-slow" }, { signal: AbortSignal.timeout(400) }), "timeout", true),
  );

  it.each(IMPLS)("%s: a signal aborted with a cancelled ScrapeError is cancelled", (impl) => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new ScrapeError("cancelled", "job cancelled")), 300);
    return expectClass(scrape(impl, { platformId: "p-slow" }, { signal: controller.signal }), "cancelled", false);
  });

  it.each([
    ["browser-v1", "p-0001"],
    ["browser-v2", "p-0002"],
    ["http-json", "p-0001"],
    ["http-json", "p-0002"],
  ])("%s reads the place's facts from %s as the platform shows them", async (impl, placeId) => {
    const result = await scrape(impl, { platformId: placeId, limit: 5 });
    const p = demo.platform.dataset.place(placeId)!;
    expect(result.facts).toEqual({
      name: p.name,
      address: p.address,
      rating: p.rating,
      reviewCount: p.reviewCount,
      histogram: p.histogram,
    });
    expect(p.histogram.reduce((a, b) => a + b, 0)).toBe(p.reviewCount);
  });

  it("reads every field beside a review from both layouts and the API, and some of each kind are there", async () => {
    const want = expected("p-0001", { limit: 120 });
    // The demo data holds each kind of field in these first 120 reviews.
    for (const key of ["photos", "editedAt", "translatedText", "ownerReplyAt", "reviewerUrl"] as const) {
      expect(
        want.some((r) => (Array.isArray(r[key]) ? (r[key] as unknown[]).length > 0 : r[key] !== null)),
        key,
      ).toBe(true);
    }
    for (const [impl, layout] of [
      ["browser-v1", 1],
      ["browser-v2", 2],
      ["browser-v2", 1],
      ["http-json", 1],
    ] as const) {
      const got = await scrape(impl, { placeUrl: `${demo.base}/places/p-0001?layout=${layout}`, limit: 120 });
      expect(got.reviews, `${impl} on layout ${layout}`).toEqual(want);
    }
  }, 60_000);

  it("reads relative dates ('2 months ago') with their precision", async () => {
    const got = await scrape("browser-v2", { placeUrl: `${demo.base}/places/p-0002?dates=relative`, limit: 40 });
    const truth = new Map(expected("p-0002", { limit: 40 }).map((r) => [r.externalId, r.publishedAt!.getTime()]));
    const slack = { exact: 0, day: 7 * 86_400_000, month: 31 * 86_400_000, year: 366 * 86_400_000 } as const;
    const seen = new Set<string>();
    for (const r of got.reviews) {
      seen.add(r.datePrecision!);
      const real = truth.get(r.externalId)!;
      // A relative date is counted back from the scraper's clock, a minute at most from the platform's.
      const allowed = r.datePrecision === "exact" ? 0 : slack[r.datePrecision!] + 60_000;
      expect(Math.abs(r.publishedAt!.getTime() - real), `${r.externalId} ${r.datePrecision}`).toBeLessThanOrEqual(
        allowed,
      );
    }
    expect([...seen].some((p) => p === "month" || p === "year")).toBe(true);
  });

  it.each(IMPLS)("%s says why it stopped: the limit, the end of the list, or where since cut it", async (impl) => {
    expect((await scrape(impl, { platformId: "p-0001", limit: 25 })).stopReason).toBe("limit");
    // p-0008 is a small place (3 to 30 reviews), shown in layout 1 (which every scraper reads).
    const small = demo.platform.dataset.place("p-0008")!;
    const all = await scrape(impl, { placeUrl: `${demo.base}/places/p-0008?layout=1`, limit: 500 });
    expect(all.reviews).toHaveLength(small.reviewCount);
    expect(all.stopReason).toBe("end_of_list");
    const since = expected("p-0001", { limit: 400 })[20]!.publishedAt!;
    const recent = await scrape(impl, { platformId: "p-0001", limit: 400, since });
    expect(recent.reviews.length).toBe(expected("p-0001", { limit: 400, since }).length);
    expect(recent.stopReason).toBe("since_reached");
  });

  it.each(IMPLS)(
    "%s (new_only) stops after the run of known reviews, its list cut there (known_reached)",
    async (impl) => {
      // Known: every review but the newest 7 and the 10th-newest (an update breaks the run); stop after 5 known in a row.
      const all = expected("p-0001", { limit: 400 });
      const unknown = new Set([...all.slice(0, 7), all[9]!].map((r) => r.externalId));
      const asked: number[] = [];
      const known: NonNullable<ScrapeContext["known"]> = {
        stopAfter: 5,
        async cutAt(source, reviews) {
          expect(source.placeKey).toContain("p-0001");
          asked.push(reviews.length);
          let run = 0;
          for (let i = 0; i < reviews.length; i++) {
            run = unknown.has(reviews[i]!.externalId) ? 0 : run + 1;
            if (run >= 5) return i + 1;
          }
          return null;
        },
      };
      const result = await scrape(impl, { platformId: "p-0001", limit: 400 }, { known });
      // 7 new, 2 known, 1 changed, then 5 known: 15 reviews, the newest first.
      expect(result.stopReason).toBe("known_reached");
      expect(result.reviews).toEqual(all.slice(0, 15));
      expect(asked.length).toBeGreaterThan(0);
      // Without the stop the same read goes on to the limit.
      expect((await scrape(impl, { platformId: "p-0001", limit: 40 })).reviews).toHaveLength(40);
    },
  );

  it.each(IMPLS)("%s: reports the reviews read so far, so a cancelled run keeps them", async (impl) => {
    const controller = new AbortController();
    let last: ScrapedReview[] = [];
    // Each request of the platform slowed down, so the read takes several seconds (two JSON pages of
    // 100, or 8 to 15 batches of cards); cancelled as soon as something was reported.
    const latency = impl === "http-json" ? 1_000 : 600;
    const running = scrape(
      impl,
      { placeUrl: `${demo.base}/places/p-0001?latency=${latency}`, limit: 150 },
      {
        signal: controller.signal,
        onReviews: (r) => {
          last = r.reviews;
          if (r.reviews.length > 0 && !controller.signal.aborted)
            setTimeout(() => controller.abort(new ScrapeError("cancelled", "job cancelled")), 0);
        },
      },
    );
    await expectClass(running, "cancelled", false);
    expect(last.length).toBeGreaterThan(0);
    expect(last.length).toBeLessThan(150);
    // What was reported is what a full read starts with.
    expect(last).toEqual(expected("p-0001", { limit: last.length }));
  });

  it.each(IMPLS)("%s: a refused connection is network", async (impl) => {
    const closedPort = await freePort();
    await expectClass(
      scrape(impl, { platformId: "p-0001" }, { platformUrl: `http://127.0.0.1:${closedPort}` }),
      "network",
      true,
    );
  });

  it.each(IMPLS)("%s: 503 from the platform is network (transient)", (impl) =>
    expectClass(scrape(impl, { placeUrl: `${demo.base}/places/p-0001?status=503` }), "network", true),
  );

  it.each([
    ["browser-v1", "p-0001"],
    ["browser-v2", "p-0002"],
  ])("%s: review cards with other markup behind a known tab are layout_changed, not timeout", async (impl, placeId) => {
    // The step limit stays at 8 s: the answered-but-not-shown grace (2 s) decides, not the step limit.
    await expectClass(
      scrape(impl, { placeUrl: `${demo.base}/places/${placeId}?markup=renamed` }),
      "layout_changed",
      false,
    );
  });

  it.each(IMPLS)("%s: a target that names no place is invalid_target", (impl) =>
    expectClass(scrape(impl, { placeUrl: `${demo.base}/about` }), "invalid_target", false),
  );
});

describe("the shared browser", () => {
  it("a Chromium that cannot start is internal (not transient); the next scrape launches a working one", async () => {
    await closeScrapers();
    setScraperConfig({ CHROMIUM_PATH: "/nonexistent/chromium" });
    try {
      const error = await rejectionOf(scrape("browser-v2", { platformId: "p-0001", limit: 3 }), ScrapeError);
      expect({ errorClass: error.errorClass, transient: error.transient }).toEqual({
        errorClass: "internal",
        transient: false,
      });
    } finally {
      setScraperConfig({ CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
    }
    expect((await scrape("browser-v2", { platformId: "p-0001", limit: 3 })).reviews).toHaveLength(3);
  });
});

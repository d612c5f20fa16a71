import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import { createDataset, type Dataset, type DemoPlace, type DemoReview } from "./generate";
import { delay, PlatformRateLimit, ZKnobs, type TKnobs } from "./faults";
import { FORWARDED_KNOBS } from "./pages/html";
import { indexPage } from "./pages/index-page";
import { layout1Cards, layout1Page } from "./pages/layout1";
import { layout2Cards, layout2Page } from "./pages/layout2";
import { pageOf, selectReviews, ZReviewsQuery } from "./query";
import { html, json, problem, type TSurface } from "./respond";
import {
  effectiveLayout,
  SPECIAL_PLACE_OVERRIDES,
  ZActivity,
  ZSettingsPatch,
  type TPlatformSettings,
} from "./settings";

export interface DemoPlatformOptions {
  seed?: number;
  places?: number;
  anchor?: Date;
  /** Starting settings (over the defaults); `resetSettings()` returns to these. */
  settings?: Partial<TPlatformSettings>;
  /** When set, /admin/* needs `Authorization: Bearer <token>`. */
  adminToken?: string;
  log?: Logger;
}

export interface DemoPlatform {
  server: http.Server;
  dataset: Dataset;
  settings(): TPlatformSettings;
  /** Changes some settings (validated); returns the new settings. */
  updateSettings(patch: Partial<TPlatformSettings>): TPlatformSettings;
  resetSettings(): TPlatformSettings;
  /** Listens (port 0: a free port) and resolves to the base URL, e.g. http://127.0.0.1:4200. */
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
}

export const DEFAULT_SETTINGS: TPlatformSettings = {
  layout: "per-place",
  latencyMs: 0,
  errorRate: 0,
  rateLimit: { capacity: 600, perMinute: 6000 },
  places: SPECIAL_PLACE_OVERRIDES,
};

const PAGE_SIZE = { 1: 20, 2: 10 } as const;
const API_PAGE_SIZE = 20;

/** Creates the demo reviews platform (an http.Server not yet listening). */
export function createDemoPlatform(options: DemoPlatformOptions = {}): DemoPlatform {
  const dataset = createDataset({
    seed: options.seed ?? 42,
    places: options.places ?? 40,
    anchor: options.anchor ?? new Date("2026-11-01T00:00:00Z"),
  });
  const initial = ZSettingsPatch.parse({ ...DEFAULT_SETTINGS, ...options.settings }) as TPlatformSettings;
  let settings = structuredClone(initial);
  const limiter = new PlatformRateLimit(() => settings);
  const sweeper = setInterval(() => limiter.sweep(), 60_000).unref();

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.log?.error({ err: error, url: req.url }, "demo platform request failed");
      if (!res.headersSent) problem(res, req.url?.startsWith("/api/") ? "json" : "html", 500);
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", "http://platform.local");
    const path = url.pathname;
    if (path.startsWith("/admin/")) return admin(req, res, path);
    if (req.method !== "GET" && req.method !== "HEAD")
      return problem(res, path.startsWith("/api/") ? "json" : "html", 405);
    if (path === "/health")
      return json(res, 200, { status: "ok", places: dataset.places.length, seed: dataset.options.seed });
    if (path === "/") return html(res, 200, indexPage(dataset.places.map((p) => describe(p))));
    if (path === "/api/places") return json(res, 200, { places: dataset.places.map((p) => placeJson(p)) });

    const route = matchPlaceRoute(path);
    if (!route) return problem(res, path.startsWith("/api/") ? "json" : "html", 404);
    const { surface, placeId } = route;
    const knobs = ZKnobs.safeParse(Object.fromEntries(url.searchParams));
    if (!knobs.success) return problem(res, surface, 400, { issues: knobs.error.issues });
    if (!limiter.admit(req, res, surface)) return;
    const override = settings.places[placeId] ?? {};
    const wait = settings.latencyMs + (override.latencyMs ?? 0) + (knobs.data.latency ?? 0);
    if (!(await delay(res, wait))) return;
    const place = dataset.place(placeId);
    if (!place) return problem(res, surface, 404, { detail: `No place with id ${placeId}.` });
    const forced = knobs.data.status ?? override.status;
    if (forced) return problem(res, surface, forced, forced === 429 ? { headers: { "Retry-After": "30" } } : {});
    if (Math.random() < Math.max(settings.errorRate, override.errorRate ?? 0)) return problem(res, surface, 503);

    const layout = knobs.data.layout ?? effectiveLayout(settings, place.id, place.layout);
    if (route.kind === "page") {
      const forwarded = new URLSearchParams();
      for (const name of [...FORWARDED_KNOBS, "sort", "lang", "since"]) {
        const value = url.searchParams.get(name);
        if (value !== null) forwarded.set(name, value);
      }
      forwarded.set("layout", String(layout));
      const fragment = `/places/${encodeURIComponent(place.id)}/reviews`;
      return html(
        res,
        200,
        layout === 1
          ? layout1Page(place, fragment, forwarded.toString())
          : layout2Page(place, fragment, forwarded.toString()),
      );
    }
    if (route.kind === "info") return json(res, 200, placeJson(place));

    const query = ZReviewsQuery.safeParse(Object.fromEntries(url.searchParams));
    if (!query.success) return problem(res, surface, 400, { issues: query.error.issues });
    const perPage = query.data.per_page ?? (route.kind === "reviews-json" ? API_PAGE_SIZE : PAGE_SIZE[layout]);
    const page = pageOf(selectReviews(dataset.reviews(place.id), query.data), query.data.page, perPage);
    if (route.kind === "reviews-json") {
      return json(res, 200, {
        place: {
          id: place.id,
          name: place.name,
          address: place.address,
          rating: place.rating,
          reviewCount: place.reviewCount,
          histogram: histogramJson(place),
        },
        page: page.page,
        perPage: page.perPage,
        total: page.total,
        totalPages: page.totalPages,
        nextPage: page.nextPage,
        reviews: page.reviews.map(reviewJson),
      });
    }
    let cards =
      layout === 1
        ? layout1Cards(page.reviews)
        : layout2Cards(page.reviews, knobs.data.dates === "relative" ? new Date() : null);
    if (knobs.data.markup === "renamed")
      cards = cards
        .replace(/class="review-card"/g, 'class="review-entry"')
        .replace(/class="rv-item"/g, 'class="rv-entry"');
    return html(res, 200, cards, {
      "x-next-page": page.nextPage === null ? "" : String(page.nextPage),
      "x-total": String(page.total),
    });
  }

  function describe(place: DemoPlace) {
    const o = settings.places[place.id];
    const notes = [
      o?.status ? `answers ${o.status}` : "",
      o?.latencyMs ? `${o.latencyMs} ms slower` : "",
      o?.errorRate ? `fails ${Math.round(o.errorRate * 100)}%` : "",
    ];
    return {
      place,
      layout: effectiveLayout(settings, place.id, place.layout),
      note: notes.filter(Boolean).join(", ") || null,
    };
  }

  function placeJson(place: DemoPlace) {
    const { place: p, layout, note } = describe(place);
    return {
      id: p.id,
      name: p.name,
      category: p.category,
      city: p.city,
      address: p.address,
      rating: p.rating,
      reviewCount: p.reviewCount,
      histogram: histogramJson(p),
      layout,
      behaviour: note,
      url: `/places/${p.id}`,
    };
  }

  async function admin(req: http.IncomingMessage, res: http.ServerResponse, path: string) {
    if (options.adminToken && req.headers.authorization !== `Bearer ${options.adminToken}`) {
      return json(res, 401, { error: { code: "unauthorized", message: "admin token required" } });
    }
    if (path === "/admin/settings" && req.method === "GET") return json(res, 200, settings);
    if (path === "/admin/settings" && (req.method === "PUT" || req.method === "PATCH")) {
      const body = await readJson(req);
      const patch = ZSettingsPatch.safeParse(body);
      if (!patch.success)
        return json(res, 400, {
          error: { code: "bad_request", message: "invalid settings", issues: patch.error.issues },
        });
      options.log?.info({ event: "settings_changed", keys: Object.keys(patch.data) }, "demo platform settings changed");
      return json(res, 200, updateSettings(patch.data));
    }
    if (path === "/admin/reset" && req.method === "POST") {
      dataset.restore();
      return json(res, 200, resetSettings());
    }
    const activity = /^\/admin\/places\/([A-Za-z0-9_-]{1,64})\/activity$/.exec(path);
    if (activity && req.method === "POST") {
      const change = ZActivity.safeParse((await readJson(req)) ?? {});
      if (!change.success)
        return json(res, 400, {
          error: { code: "bad_request", message: "invalid activity", issues: change.error.issues },
        });
      const done = dataset.activity(activity[1] as string, change.data, new Date());
      if (!done) return problem(res, "json", 404, { detail: `No place with id ${activity[1]}.` });
      options.log?.info(
        { event: "place_activity", placeId: activity[1], added: done.added.length, edited: done.edited.length },
        "demo place changed",
      );
      return json(res, 200, { place: placeJson(dataset.place(activity[1] as string) as DemoPlace), ...done });
    }
    return problem(res, "json", path === "/admin/settings" || path === "/admin/reset" || activity ? 405 : 404);
  }

  function updateSettings(patch: Partial<TPlatformSettings>): TPlatformSettings {
    settings = { ...settings, ...ZSettingsPatch.parse(patch) };
    return settings;
  }

  function resetSettings(): TPlatformSettings {
    settings = structuredClone(initial);
    return settings;
  }

  return {
    server,
    dataset,
    settings: () => settings,
    updateSettings,
    resetSettings,
    listen: (port = 0, host = "127.0.0.1") =>
      new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          server.off("error", reject);
          const address = server.address() as AddressInfo;
          resolve(`http://${host.includes(":") ? `[${host}]` : host}:${address.port}`);
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(sweeper);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

type PlaceRoute = { kind: "page" | "fragment" | "info" | "reviews-json"; surface: TSurface; placeId: string };

function matchPlaceRoute(path: string): PlaceRoute | null {
  const m = /^\/(api\/)?places\/([^/]+)(\/reviews)?\/?$/.exec(path);
  if (!m) return null;
  let placeId: string;
  try {
    placeId = decodeURIComponent(m[2] ?? "");
  } catch {
    placeId = m[2] ?? "";
  }
  if (m[1]) return { kind: m[3] ? "reviews-json" : "info", surface: "json", placeId };
  return m[3] ? { kind: "fragment", surface: "fragment", placeId } : { kind: "page", surface: "html", placeId };
}

/** The rating histogram as the API shows it: stars ("1".."5") to review counts. */
function histogramJson(place: DemoPlace): Record<"1" | "2" | "3" | "4" | "5", number> {
  const [one, two, three, four, five] = place.histogram;
  return { "1": one, "2": two, "3": three, "4": four, "5": five };
}

function reviewJson(r: DemoReview) {
  return {
    id: r.id,
    author: r.author,
    rating: r.rating,
    text: r.text,
    language: r.language,
    publishedAt: r.publishedAt.toISOString(),
    ownerReply: r.ownerReply,
    ownerReplyAt: r.ownerReplyAt?.toISOString() ?? null,
    helpful: r.helpful,
    photos: r.photos,
    reviewer: r.reviewer ? { url: r.reviewer.path, reviewCount: r.reviewer.reviewCount } : null,
    editedAt: r.editedAt?.toISOString() ?? null,
    translation: r.translation,
  };
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 64_000) return undefined;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return undefined;
  }
}

export type { TKnobs };

import { ScrapeError, type ScrapedReview, type ScrapeContext, type ScrapeTarget } from "../types";

/** Knob parameters of a place URL that the scrapers keep on every request they make for it. */
const KEPT_PARAMS = ["latency", "status", "layout", "markup", "dates"];
const PLACE_ID = /^[A-Za-z0-9_-]{1,64}$/;

export interface ResolvedTarget {
  /** Origin of the platform serving the place, e.g. http://127.0.0.1:4200: the only one the scrape may reach. */
  origin: string;
  placeId: string;
  placeKey: string;
  /** Demo knobs found in the place URL (kept on every request). */
  knobs: URLSearchParams;
}

/**
 * Finds the place a target names on the platform (ctx.platformUrl): placeUrl (…/places/<id>) wins
 * over platformId. A placeUrl on any other origin, or with credentials, is refused before any request
 * (invalid_target, "target_not_allowed"): submission refuses it already, this guards older jobs and
 * a version whose platform changed since.
 */
export function resolveTarget(target: ScrapeTarget, ctx: Pick<ScrapeContext, "platformUrl">): ResolvedTarget {
  if (!Number.isInteger(target.limit) || target.limit < 0)
    throw new ScrapeError("invalid_target", "limit must be a whole number >= 0");
  if (target.since && Number.isNaN(target.since.getTime()))
    throw new ScrapeError("invalid_target", "since is not a valid date");
  let url: URL;
  let placeId: string | undefined;
  try {
    if (target.placeUrl) {
      url = new URL(target.placeUrl);
      placeId = /^\/places\/([^/]+)\/?$/.exec(url.pathname)?.[1];
    } else if (target.platformId) {
      url = new URL(ctx.platformUrl);
      placeId = target.platformId;
    } else {
      throw new ScrapeError("invalid_target", "the target names neither a place URL nor a platform id");
    }
  } catch (error) {
    if (error instanceof ScrapeError) throw error;
    throw new ScrapeError("invalid_target", `not a URL: ${target.placeUrl ?? ctx.platformUrl}`, { cause: error });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new ScrapeError("invalid_target", `unsupported URL scheme ${url.protocol}`);
  const platform = new URL(ctx.platformUrl).origin;
  if (url.origin !== platform || url.username || url.password) {
    throw new ScrapeError("invalid_target", `target_not_allowed: the place URL is not on the platform ${platform}`);
  }
  if (!placeId || !PLACE_ID.test(decodeSafe(placeId))) {
    throw new ScrapeError("invalid_target", `not a place of the platform: ${target.placeUrl ?? target.platformId}`);
  }
  placeId = decodeSafe(placeId);
  const knobs = new URLSearchParams();
  for (const name of KEPT_PARAMS) {
    const value = target.placeUrl ? url.searchParams.get(name) : null;
    if (value !== null) knobs.set(name, value);
  }
  return { origin: platform, placeId, placeKey: `demo-platform:${placeId}`, knobs };
}

function decodeSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Query parameters for sort, language and since, as both the pages and the JSON API take them. */
export function targetParams(target: ScrapeTarget, knobs: URLSearchParams): URLSearchParams {
  const params = new URLSearchParams(knobs);
  params.set("sort", target.sort);
  if (target.language) params.set("lang", target.language.toLowerCase());
  if (target.since) params.set("since", target.since.toISOString());
  return params;
}

/**
 * Keeps what the target asks for even if the platform ignored a filter: no review before `since`,
 * none in another language (reviews of unknown language stay), at most `limit`, no duplicates.
 */
export function applyTarget(reviews: ScrapedReview[], target: ScrapeTarget): ScrapedReview[] {
  const since = target.since?.getTime();
  const language = target.language?.toLowerCase();
  const seen = new Set<string>();
  const kept: ScrapedReview[] = [];
  for (const r of reviews) {
    if (kept.length >= target.limit) break;
    if (seen.has(r.externalId)) continue;
    if (since !== undefined && r.publishedAt && r.publishedAt.getTime() < since) continue;
    if (language && r.language && r.language.toLowerCase() !== language) continue;
    seen.add(r.externalId);
    kept.push(r);
  }
  return kept;
}

/**
 * For a `new_only` read (ctx.known): the reviews read so far up to the end of the first run of known
 * ones, or null to read on. The lookup failing (the database away) is a transient error: the job runs again.
 */
export async function cutAtKnown(
  ctx: ScrapeContext,
  place: { origin: string; placeKey: string },
  reviews: ScrapedReview[],
): Promise<ScrapedReview[] | null> {
  if (!ctx.known) return null;
  let at: number | null;
  try {
    at = await ctx.known.cutAt(place, reviews);
  } catch (error) {
    throw new ScrapeError("network", "could not look up the reviews already collected", { cause: error });
  }
  return at === null ? null : reviews.slice(0, at);
}

/**
 * Scraper contract shared by the worker (core) and the scraper implementations.
 *
 * TScrapeErrorClass mirrors the Prisma enum ScrapeErrorClass (prisma/schema.prisma)
 * member for member, so an error class can be stored as-is. Scrapers themselves
 * raise the first seven; "invalid_target" is raised when the target cannot be
 * turned into a place on the platform (no placeUrl/platformId, URL on another
 * host), and "cancelled" when the signal is aborted with a ScrapeError("cancelled")
 * as its reason (the worker's job cancellation). Any other abort reason is "timeout".
 */
export const SCRAPE_ERROR_CLASSES = [
  "target_not_found",
  "blocked",
  "rate_limited",
  "layout_changed",
  "timeout",
  "network",
  "invalid_target",
  "cancelled",
  "internal",
] as const;

export type TScrapeErrorClass = (typeof SCRAPE_ERROR_CLASSES)[number];

/** Classes worth retrying: the same request may succeed later. */
export const TRANSIENT_SCRAPE_ERROR_CLASSES: readonly TScrapeErrorClass[] = ["rate_limited", "timeout", "network"];

export type TScrapeSort = "newest" | "relevant" | "highest" | "lowest";

export interface ScrapeTarget {
  /** Full URL of a place page on the demo platform, e.g. http://127.0.0.1:4200/places/p-0001 */
  placeUrl?: string;
  /** Place id on the platform, e.g. "p-0001" (used when placeUrl is absent). */
  platformId?: string;
  /** Maximum number of reviews to collect (>= 0). */
  limit: number;
  sort: TScrapeSort;
  /** Only reviews published at or after this instant. */
  since?: Date;
  /** Only reviews in this language (ISO 639-1, e.g. "en"). */
  language?: string;
}

export interface ScrapedReview {
  /** Stable id of the review on the platform (dedup key together with placeKey). */
  externalId: string;
  author: string | null;
  rating: number | null;
  text: string | null;
  language: string | null;
  publishedAt: Date | null;
  ownerReply: string | null;
  // What a platform may show beside a review; left out (undefined) when a scraper cannot see it.
  /** How precise `publishedAt` is: exact (an instant), day (a written date), month or year ("2 months ago"). */
  datePrecision?: TDatePrecision;
  ownerReplyAt?: Date | null;
  /** "Helpful" or "useful" votes. */
  helpful?: number | null;
  /** Absolute URLs of the review's photos. */
  photos?: string[];
  /** Absolute URL of the reviewer's profile, and how many reviews they wrote. */
  reviewerUrl?: string | null;
  reviewerReviewCount?: number | null;
  editedAt?: Date | null;
  /** The platform's translation of `text` (which stays the original), and its language. */
  translatedText?: string | null;
  translatedLanguage?: string | null;
}

export const DATE_PRECISIONS = ["exact", "day", "month", "year"] as const;
export type TDatePrecision = (typeof DATE_PRECISIONS)[number];

/** What the platform shows about the place itself (each fact only when the page or API shows it). */
export interface PlaceFacts {
  name?: string;
  address?: string;
  /** Average rating as shown (e.g. 4.3). */
  rating?: number;
  /** How many reviews the platform says the place has. */
  reviewCount?: number;
  /** Reviews with 1, 2, 3, 4 and 5 stars (index 0 is 1 star). */
  histogram?: [number, number, number, number, number];
}

/** Why a collection stopped (the job's coverage block). */
export const STOP_REASONS = [
  "limit",
  "end_of_list",
  "since_reached",
  "blocked",
  "layout_changed",
  "timeout",
  "cancelled",
  "known_reached",
] as const;
export type TStopReason = (typeof STOP_REASONS)[number];

/** The stop reason of a list read to its end or to the limit: `limit` when the limit was reached, else the end of the (since-filtered) list. */
export function stopReasonOf(collected: number, target: Pick<ScrapeTarget, "limit" | "since">): TStopReason {
  if (collected >= target.limit) return "limit";
  return target.since ? "since_reached" : "end_of_list";
}

export interface ScrapeResult {
  /** Origin (scheme, host, port) the reviews were read from: the platform's, never another. */
  origin: string;
  /** Key of the place on its platform, "<platform>:<platform id>" (e.g. "demo-platform:p-0001"); with the origin it names the place. */
  placeKey: string;
  reviews: ScrapedReview[];
  /** Platform id of the place (e.g. "p-0001"). */
  platformId?: string;
  /** Place name as shown by the platform, when known. */
  placeName?: string;
  /** The place's facts as the platform shows them. */
  facts?: PlaceFacts;
  /** Why the read stopped (set by a read that ended normally). */
  stopReason?: TStopReason;
}

/** A `new_only` job's stop (the worker's, review-changes.ts): where the list read so far may end. */
export interface KnownReviews {
  /** Consecutive reviews already collected, unchanged, after which the read stops. */
  stopAfter: number;
  /** The index just past the first run of `stopAfter` known reviews in `reviews` (list order), or null. */
  cutAt(source: { origin: string; placeKey: string }, reviews: ScrapedReview[]): Promise<number | null>;
}

export interface ScrapeContext {
  signal: AbortSignal;
  /** Set for a `new_only` job: the scraper asks after each page (or step) and stops with `known_reached`. */
  known?: KnownReviews;
  /** The platform of the job's scraper version (its config's platformUrl, else DEMO_PLATFORM_URL): the one origin the scrape may reach. */
  platformUrl: string;
  onProgress?(collected: number): void;
  /**
   * The reviews read so far (after the target's filters), as a result: the worker keeps the latest so
   * that a cancelled run keeps what it had read. The JSON scraper reports after every page; the browser
   * scrapers at most every BROWSER_CHECKPOINT_MS (reading every card again costs a pass over the page).
   */
  onReviews?(sofar: ScrapeResult): void;
}

export interface ScrapeErrorOptions {
  /** Defaults to true for rate_limited, timeout and network. */
  transient?: boolean;
  cause?: unknown;
  /** For rate_limited: seconds from the platform's Retry-After header. */
  retryAfterSeconds?: number;
  /** HTTP status that led to the error, when there was one. */
  status?: number;
}

export class ScrapeError extends Error {
  readonly errorClass: TScrapeErrorClass;
  readonly transient: boolean;
  readonly retryAfterSeconds: number | undefined;
  readonly status: number | undefined;

  constructor(errorClass: TScrapeErrorClass, message: string, options: ScrapeErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ScrapeError";
    this.errorClass = errorClass;
    this.transient = options.transient ?? TRANSIENT_SCRAPE_ERROR_CLASSES.includes(errorClass);
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.status = options.status;
  }
}

export interface Scraper {
  implementation: string;
  scrape(target: ScrapeTarget, ctx: ScrapeContext): Promise<ScrapeResult>;
}

import type { ReviewLabel } from "../../types";
import { EVIDENCE_IDS } from "../aggregate";
import { filterKey, matchesFilter, type EvidenceFilter } from "../evidence";
import { EN_NUMBERS, formatMonth, formatNumber, numberSpans, sameNumber, type NumberStyle } from "./numbers";
import type { TNarrative } from "./narrative";

// Every figure the narrative prints carries the reviews behind it (docs/pipelines.md, "Evidence").
// A writer calls `cite(ref, claim)` for each figure; the figure comes back as written, wrapped in
// tags; untagging the finished texts gives the plain texts and the character spans of the figures,
// so a text and its links cannot disagree.

/** A figure the narrative states, and the reviews it counts. */
export interface Claim {
  value: number;
  /** reviews, mentions, issues, places, %, stars, score (-1..1), points (-100..100), risk (0..100), or month, time, date (written as `text`). */
  unit: string;
  filter: EvidenceFilter;
  /** A share's base: the reviews it is a share of. */
  of?: EvidenceFilter;
  /** How the figure is written when it is not the number itself (a month, a date, a clock time). */
  text?: string;
}

/** One figure of the report with its reviews: how many, and the first ids by id. */
export interface EvidenceEntry {
  value: number;
  unit: string;
  text?: string;
  filter: EvidenceFilter;
  reviews: number;
  review_ids: string[];
  of?: { filter: EvidenceFilter; reviews: number };
}

/** The narrative texts whose figures are linked. */
export const LINK_FIELDS = [
  "headline",
  "narrative",
  "sentiment_insights",
  "category_insights",
  "timeline_insights",
  "action_plan",
  "marketing_angles",
  "priority_recommendations",
] as const;
export type LinkField = (typeof LINK_FIELDS)[number];

/** A figure in a text: characters [start, end) of the field (of its `index`-th item for lists) are evidence `ref`. */
export interface EvidenceLink {
  field: LinkField;
  index: number | null;
  start: number;
  end: number;
  ref: string;
}

/**
 * How a claim is written: a month by its name in the language ("March 2026", "marzo de 2026"), other
 * texts as they are (dates and clock times), else the number in the language's style (English:
 * thousands with commas), with % for shares. The evidence keeps the month as "2026-03" in every language.
 */
export function formatClaim(claim: Pick<Claim, "value" | "unit" | "text">, style: NumberStyle = EN_NUMBERS): string {
  if (claim.text !== undefined) return claim.unit === "month" ? formatMonth(claim.text, style) : claim.text;
  const n = formatNumber(claim.value, style);
  return claim.unit === "%" ? `${n}${style.percent}` : n;
}

/** What a writer calls for every figure it prints; returns the figure as written. */
export type Cite = (ref: string, claim: Claim) => string;

const OPEN = "\u0002";
const MID = "\u0003";
const CLOSE = "\u0004";
const TAGGED = /\u0002([^\u0003]*)\u0003([^\u0004]*)\u0004/g;

/** Writes figures without recording them (the narrative alone), in a language's number style. */
export const plainCiteIn =
  (style: NumberStyle): Cite =>
  (_ref, claim) =>
    formatClaim(claim, style);

/** Writes figures without recording them, in English. */
export const plainCite: Cite = plainCiteIn(EN_NUMBERS);

/** The plain text of a tagged text and the spans of its figures. */
export function untag(tagged: string): { text: string; spans: { start: number; end: number; ref: string }[] } {
  const spans: { start: number; end: number; ref: string }[] = [];
  let text = "";
  let last = 0;
  for (const m of tagged.matchAll(TAGGED)) {
    text += tagged.slice(last, m.index);
    const shown = m[2] as string;
    spans.push({ start: text.length, end: text.length + shown.length, ref: m[1] as string });
    text += shown;
    last = m.index + m[0].length;
  }
  return { text: text + tagged.slice(last), spans };
}

/** Untags every text of a narrative: the plain narrative and its links. */
export function untagNarrative(tagged: TNarrative): { narrative: TNarrative; links: EvidenceLink[] } {
  const links: EvidenceLink[] = [];
  const one = (field: LinkField, index: number | null, value: string) => {
    const { text, spans } = untag(value);
    for (const s of spans) links.push({ field, index, ...s });
    return text;
  };
  const narrative = { ...tagged };
  for (const field of LINK_FIELDS) {
    const value = tagged[field];
    if (typeof value === "string") (narrative as Record<string, unknown>)[field] = one(field, null, value);
    else (narrative as Record<string, unknown>)[field] = value.map((v, i) => one(field, i, v));
  }
  return { narrative, links };
}

/** The reviews of another run's figures (the previous run), looked up by filterKey. */
export type OtherRuns = Record<string, { reviews: number; review_ids: string[] }>;

/**
 * The evidence of a report: `cite` records each figure once, with the label rows that match its
 * filter (the previous run's figures from `previous`, looked up). A ref cited again must state the
 * same figure: two figures under one ref is a writer's mistake, and throws.
 */
export class EvidenceBook {
  readonly entries: Record<string, EvidenceEntry> = {};

  constructor(
    private readonly rows: readonly ReviewLabel[],
    private readonly previous: OtherRuns = {},
  ) {}

  private reviewsOf(filter: EvidenceFilter): { reviews: number; review_ids: string[] } {
    if (filter.execution_id) return this.previous[filterKey(filter)] ?? { reviews: 0, review_ids: [] };
    let reviews = 0;
    const review_ids: string[] = [];
    for (const row of this.rows) {
      if (!matchesFilter(row, filter)) continue;
      reviews++;
      if (review_ids.length < EVIDENCE_IDS) review_ids.push(row.review_id);
    }
    return { reviews, review_ids };
  }

  /** Records a figure and writes it in English. */
  readonly cite: Cite = (ref, claim) => this.citeIn(EN_NUMBERS)(ref, claim);

  /**
   * Records a figure and writes it in a language's number style: every language cites the same
   * figures under the same refs, so one evidence serves the narratives of all languages.
   */
  readonly citeIn =
    (style: NumberStyle): Cite =>
    (ref, claim) => {
      const known = this.entries[ref];
      if (known) {
        if (known.value !== claim.value || known.unit !== claim.unit || known.text !== claim.text)
          throw new Error(`evidence ${ref} cited with two figures`);
      } else {
        this.entries[ref] = {
          value: claim.value,
          unit: claim.unit,
          ...(claim.text !== undefined ? { text: claim.text } : {}),
          filter: claim.filter,
          ...this.reviewsOf(claim.filter),
          ...(claim.of ? { of: { filter: claim.of, reviews: this.reviewsOf(claim.of).reviews } } : {}),
        };
      }
      return `${OPEN}${ref}${MID}${formatClaim(claim, style)}${CLOSE}`;
    };
}

const DATE_OR_TIME = /\b\d{4}-\d{2}(?:-\d{2})?\b|\b\d{1,2}:\d{2}\b/g;

/**
 * Links the figures of a text written by someone else (the language model) to the evidence by value:
 * months, dates and clock times to the entry written the same way, numbers (a share when followed by
 * %) to the first entry of that kind whose value, or one of its usual roundings, is the number.
 * Figures with no such entry stay unlinked (the invented-number guard has already run).
 */
export function linkByValue(narrative: TNarrative, evidence: Record<string, EvidenceEntry>): EvidenceLink[] {
  const entries = Object.entries(evidence);
  const links: EvidenceLink[] = [];
  const one = (field: LinkField, index: number | null, text: string) => {
    const taken: [number, number][] = [];
    for (const m of text.matchAll(DATE_OR_TIME)) {
      const hit = entries.find(([, e]) => e.text === m[0]);
      taken.push([m.index, m.index + m[0].length]);
      if (hit) links.push({ field, index, start: m.index, end: m.index + m[0].length, ref: hit[0] });
    }
    for (const n of numberSpans(text)) {
      if (taken.some(([s, e]) => n.start < e && n.end > s)) continue;
      const percent = text[n.end] === "%";
      const hit = entries.find(
        ([, e]) => e.text === undefined && (e.unit === "%") === percent && sameNumber(e.value, n.value),
      );
      if (hit) links.push({ field, index, start: n.start, end: n.end + (percent ? 1 : 0), ref: hit[0] });
    }
  };
  for (const field of LINK_FIELDS) {
    const value = narrative[field];
    if (typeof value === "string") one(field, null, value);
    else value.forEach((v, i) => one(field, i, v));
  }
  return links;
}

/**
 * Token patterns of the review-analytics rules (lexicon idioms, categories, critical concepts):
 * positions separated by spaces; each position one or more alternatives separated by `|`; an
 * alternative ending in `*` is a stem (any token starting with it), `_` is any one token, and `_?`
 * any one token or none. Patterns are written folded (text.ts `fold`), like the tokens they match.
 *
 *   "food poisoning"            "throw*|threw up"            "piece|bit|shard of _? glass|plastic"
 */
/** A list of words and phrases written as one `|`-separated string: one pattern per alternative. */
export const words = (...lists: string[]): string[] =>
  lists.flatMap((l) =>
    l
      .split("|")
      .map((w) => w.trim())
      .filter(Boolean),
  );

type Position = { any: true; optional: boolean } | { any: false; exact: ReadonlySet<string>; stems: readonly string[] };

export interface Pattern<T> {
  source: string;
  positions: Position[];
  value: T;
}

function compilePosition(part: string): Position {
  if (part === "_" || part === "_?") return { any: true, optional: part === "_?" };
  const exact = new Set<string>();
  const stems: string[] = [];
  for (const alt of part.split("|")) {
    if (!alt) throw new Error(`empty alternative in pattern position "${part}"`);
    if (alt.endsWith("*")) stems.push(alt.slice(0, -1));
    else exact.add(alt);
  }
  return { any: false, exact, stems };
}

function matchesPosition(p: Position, token: string): boolean {
  if (p.any) return true;
  if (p.exact.has(token)) return true;
  for (const s of p.stems) if (token.startsWith(s)) return true;
  return false;
}

export function compilePattern<T>(source: string, value: T): Pattern<T> {
  const positions = source.trim().split(/\s+/).map(compilePosition);
  if (positions.length === 0 || positions[0]!.any) throw new Error(`pattern "${source}" must start with a word`);
  return { source, positions, value };
}

/** Length of a match of the pattern's positions from `from` on (first position already matched), or -1. */
function matchRest(positions: readonly Position[], tokens: readonly string[], k: number, i: number): number {
  if (k === positions.length) return i;
  const p = positions[k]!;
  if (p.any && p.optional) {
    const skipped = matchRest(positions, tokens, k + 1, i);
    if (skipped >= 0) return skipped;
    return i < tokens.length ? matchRest(positions, tokens, k + 1, i + 1) : -1;
  }
  if (i >= tokens.length || !matchesPosition(p, tokens[i]!)) return -1;
  return matchRest(positions, tokens, k + 1, i + 1);
}

export interface Match<T> {
  start: number;
  end: number;
  value: T;
  source: string;
}

/** Whether a match starts inside one of the spans (an exclusion or idiom that gives its words another sense). */
export function insideAny(m: Match<unknown>, spans: readonly Match<unknown>[]): boolean {
  return spans.some((x) => m.start >= x.start && m.start < x.end);
}

/**
 * A set of patterns indexed by what their first position accepts, so a sentence is scanned once:
 * each token looks up (memoised) the patterns that may start on it.
 */
export class PatternSet<T> {
  private readonly patterns: Pattern<T>[];
  private readonly byExact = new Map<string, Pattern<T>[]>();
  private readonly byStem: { stem: string; pattern: Pattern<T> }[] = [];
  private readonly memo = new Map<string, Pattern<T>[]>();

  constructor(entries: Iterable<readonly [string, T]>) {
    this.patterns = [...entries].map(([source, value]) => compilePattern(source, value));
    for (const pattern of this.patterns) {
      const first = pattern.positions[0] as Extract<Position, { any: false }>;
      for (const word of first.exact) this.byExact.set(word, [...(this.byExact.get(word) ?? []), pattern]);
      for (const stem of first.stems) this.byStem.push({ stem, pattern });
    }
  }

  get size(): number {
    return this.patterns.length;
  }

  private startingWith(token: string): Pattern<T>[] {
    let list = this.memo.get(token);
    if (!list) {
      list = [...(this.byExact.get(token) ?? [])];
      for (const { stem, pattern } of this.byStem)
        if (token.startsWith(stem) && !list.includes(pattern)) list.push(pattern);
      // Longest patterns first: "not bad at all" before "not bad".
      list.sort((a, b) => b.positions.length - a.positions.length);
      if (this.memo.size < 200_000) this.memo.set(token, list);
    }
    return list;
  }

  /** Every match, from left to right; overlapping matches are all reported. */
  all(tokens: readonly string[]): Match<T>[] {
    const out: Match<T>[] = [];
    for (let i = 0; i < tokens.length; i++) {
      for (const p of this.startingWith(tokens[i]!)) {
        const end = matchRest(p.positions, tokens, 1, i + 1);
        if (end >= 0) out.push({ start: i, end, value: p.value, source: p.source });
      }
    }
    return out;
  }

  /** Matches that do not overlap: at each token the longest pattern wins, and its tokens are used up. */
  greedy(tokens: readonly string[]): Match<T>[] {
    const out: Match<T>[] = [];
    for (let i = 0; i < tokens.length;) {
      let best: Match<T> | null = null;
      for (const p of this.startingWith(tokens[i]!)) {
        const end = matchRest(p.positions, tokens, 1, i + 1);
        if (end >= 0 && (!best || end > best.end)) best = { start: i, end, value: p.value, source: p.source };
      }
      if (best) {
        out.push(best);
        i = best.end;
      } else i++;
    }
    return out;
  }
}

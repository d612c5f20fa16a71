/** Seeded pseudo-random numbers (mulberry32): the same seed gives the same platform everywhere. */
export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max] (both included). */
  int(min: number, max: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** True with probability p. */
  chance(p: number): boolean;
  /** One key drawn by weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K;
}

/** A 32-bit hash of a string (FNV-1a), used to derive per-place and per-review seeds. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A generator seeded by a number or by any list of strings and numbers (hashed together). */
export function createRng(...seedParts: (string | number)[]): Rng {
  let state = hashString(seedParts.join("\u0000"));
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng: Rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => {
      if (items.length === 0) throw new RangeError("pick from an empty list");
      return items[Math.floor(next() * items.length)] as (typeof items)[number];
    },
    chance: (p) => next() < p,
    weighted: (weights) => {
      const entries = Object.entries(weights) as [keyof typeof weights, number][];
      const total = entries.reduce((sum, [, w]) => sum + w, 0);
      let draw = next() * total;
      for (const [key, w] of entries) {
        draw -= w;
        if (draw < 0) return key;
      }
      return (entries[entries.length - 1] as [keyof typeof weights, number])[0];
    },
  };
  return rng;
}

/**
 * English sentiment lexicon, AFINN-style: integer valence from -5 (very negative) to +5 (very
 * positive). Authored for this project (see docs/pipelines.md, "Sentiment"): the scores follow the
 * AFINN-111 scale and conventions (Finn Årup Nielsen, 2011) for the words restaurant reviews use;
 * the list is our own, not a copy. A trailing * matches any word starting with the stem.
 */
export const EN_LEXICON: Record<string, number> = {
  amazing: 4, awesome: 4, excellent: 4, outstanding: 5, superb: 5, fantastic: 4, wonderful: 4, perfect: 4,
  great: 3, delicious: 4, tasty: 3, fresh: 2, lovely: 3, nice: 2, good: 2, fine: 1, decent: 1, ok: 0, okay: 0,
  friendly: 2, attentive: 2, helpful: 2, welcoming: 2, polite: 2, professional: 2, kind: 2, warm: 1,
  cozy: 2, cosy: 2, charming: 3, beautiful: 3, pleasant: 2, relaxed: 2, quiet: 1, spotless: 3, clean: 2, tidy: 2,
  fast: 2, quick: 2, prompt: 2, efficient: 2, reasonable: 2, affordable: 2, fair: 1, worth: 2, bargain: 2,
  recommend: 2, recommended: 2, love: 3, loved: 3, enjoy: 2, enjoyed: 2, happy: 3, best: 3, favourite: 2, favorite: 2,
  generous: 2, impressive: 3, flavorful: 3, flavourful: 3, crispy: 1, juicy: 2, authentic: 2, gem: 3,
  bad: -3, terrible: -3, awful: -3, horrible: -3, disgusting: -4, inedible: -4, bland: -2, cold: -1, stale: -2,
  soggy: -2, greasy: -2, burnt: -2, burned: -2, undercooked: -2, overcooked: -2, raw: -1, salty: -1, tasteless: -2,
  rude: -3, unfriendly: -2, arrogant: -2, ignored: -2, slow: -2, forgot: -1, forgotten: -1, careless: -2, incompetent: -3,
  dirty: -3, filthy: -4, sticky: -2, smelly: -3, smelled: -2, stink: -3, stinks: -3, mold: -3, mouldy: -3, moldy: -3,
  cockroach: -4, cockroaches: -4, hair: -1, sick: -3, poisoning: -4,
  expensive: -2, overpriced: -3, pricey: -1, ripoff: -3, "rip-off": -3, overcharged: -3,
  noisy: -2, loud: -1, crowded: -1, cramped: -2, dark: -1, uncomfortable: -2, smoky: -2,
  waited: -1, waiting: -1, wait: -1, forever: -1, delay: -2, delayed: -2, late: -1,
  disappointed: -2, disappointing: -2, disappointment: -2, mediocre: -1, poor: -2, worst: -3, never: -1,
  unacceptable: -3, complaint: -2, complained: -2, problem: -2, mistake: -2, wrong: -2, hate: -3, avoid: -2,
  annoying: -2, chaotic: -2, overwhelmed: -1, unprofessional: -2, lukewarm: -1, tiny: -1, small: -1,
};

/** Words that flip the valence of the words after them (within three tokens). */
export const EN_NEGATORS = new Set(["not", "no", "never", "isn't", "wasn't", "weren't", "don't", "didn't", "nothing", "hardly", "without"]);
/** Words that strengthen the next scored word by half. */
export const EN_BOOSTERS = new Set(["very", "really", "extremely", "super", "so", "incredibly", "absolutely", "truly", "totally"]);

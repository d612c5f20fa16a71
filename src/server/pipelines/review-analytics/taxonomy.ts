import type { Language } from "./language";

/**
 * The category taxonomy of review-analytics (docs/pipelines.md, "Taxonomy"). A rule is a word, a
 * stem ending in * or a phrase of several such words in a row; a sentence belongs to every category
 * one of whose rules it contains.
 */
export const CATEGORIES = ["food", "service", "price", "cleanliness", "waiting_time", "ambience"] as const;
export type Category = (typeof CATEGORIES)[number];

/** The team that owns the issues of each category (route stage). */
export const OWNER_TEAMS: Record<Category, string> = {
  food: "kitchen",
  service: "front_of_house",
  price: "management",
  cleanliness: "facilities",
  waiting_time: "operations",
  ambience: "facilities",
};

export const RULES: Record<Language, Record<Category, string[]>> = {
  en: {
    food: ["food", "dish*", "meal*", "pizza*", "pasta", "burger*", "steak*", "dessert*", "taste*", "flavo*", "menu", "portion*", "fries", "salad*", "soup*", "bread", "coffee", "wine", "cooked", "chef"],
    service: ["service", "staff", "waiter*", "waitress*", "server*", "host*", "manager", "bartender*", "employee*", "friendly", "rude", "attentive", "welcom*", "ignored"],
    price: ["price*", "pric*", "expensive", "cheap*", "overpriced", "value for money", "bill", "cost*", "worth", "affordable", "overcharged", "rip-off", "ripoff"],
    cleanliness: ["clean*", "dirty", "filthy", "hygien*", "toilet*", "bathroom*", "restroom*", "sticky", "smell*", "cockroach*", "mold*", "mould*", "spotless", "dust*", "hair in"],
    waiting_time: ["wait", "waits", "waited", "waiting", "slow", "minutes", "hour", "hours", "took forever", "took ages", "delay*", "quick", "fast", "prompt*", "queue*", "line was"],
    ambience: ["ambience", "ambiance", "atmosphere", "decor*", "music", "noisy", "loud", "cozy", "cosy", "interior", "terrace", "view", "lighting", "crowded", "vibe", "seating", "cramped"],
  },
  es: {
    food: ["comida", "plato*", "pizza*", "pasta", "hamburguesa*", "carne", "postre*", "sabor*", "menú", "menu", "raci*", "paella", "tapas", "ensalada*", "sopa*", "pan", "café", "vino", "cocin*", "chef"],
    service: ["servicio", "personal", "camarer*", "mesero*", "atenci*", "encargad*", "amable*", "maleducad*", "grosero*", "atento*", "antipátic*", "trato"],
    price: ["precio*", "caro*", "cara", "barato*", "económic*", "calidad precio", "calidad-precio", "cuenta", "pagar", "pagamos", "cobraron", "estafa", "abusivo*", "carísimo*"],
    cleanliness: ["limpi*", "sucio*", "sucia*", "suciedad", "higiene", "baño*", "aseo*", "mugre", "olor*", "cucaracha*", "pelo en", "impecable"],
    waiting_time: ["espera*", "esperamos", "esperar", "tardaron", "tardó", "minutos", "hora", "horas", "lento*", "lenta*", "rápid*", "retraso*", "cola"],
    ambience: ["ambiente", "decoraci*", "música", "musica", "ruido*", "acogedor*", "terraza", "vistas", "local", "iluminaci*", "lleno", "agobiante"],
  },
  de: {
    food: ["essen", "gericht*", "speise*", "pizza*", "pasta", "nudel*", "burger*", "schnitzel*", "steak*", "nachtisch*", "dessert*", "geschmack*", "schmeckt*", "geschmeckt", "portion*", "salat*", "suppe*", "brot", "kaffee", "wein", "koch*", "küche"],
    service: ["service", "bedienung*", "kellner*", "personal*", "mitarbeiter*", "chef", "freundlich*", "unfreundlich*", "unhöflich*", "aufmerksam*", "ignoriert*", "empfang*"],
    price: ["preis*", "teuer*", "günstig*", "preiswert*", "überteuert*", "rechnung*", "kosten*", "bezahlt", "abzocke*", "wucher*", "preis-leistung*"],
    cleanliness: ["sauber*", "schmutzig*", "dreckig*", "hygiene*", "toilette*", "klo*", "klebrig*", "gestunken", "stinkt", "geruch*", "kakerlake*", "schimmel*", "blitzsauber*", "verschmutzt*", "haar im"],
    waiting_time: ["warte*", "gewartet", "wartezeit*", "minuten", "stunde*", "langsam*", "schnell*", "zügig*", "verspät*", "ewig*", "schlange"],
    ambience: ["ambiente", "atmosphäre", "einrichtung*", "musik", "laut*", "gemütlich*", "ungemütlich*", "terrasse*", "aussicht", "beleuchtung*", "voll", "eng", "stimmung*", "dekor*"],
  },
};

/** Phrases that make an issue critical whatever its score: health and safety (route stage). */
export const CRITICAL_RULES: Record<Language, string[]> = {
  en: ["food poisoning", "got sick", "cockroach*", "rat", "rats", "mold*", "mould*", "hair in", "glass in", "allergic reaction"],
  es: ["intoxicaci*", "cucaracha*", "rata*", "moho", "pelo en", "me puse enfermo", "nos pusimos enfermos", "reacción alérgica", "cristal en"],
  de: ["lebensmittelvergiftung*", "kakerlake*", "ratte*", "schimmel*", "haar im", "krank geworden", "allergische reaktion", "glas im"],
};

type Matcher = (tokens: readonly string[]) => boolean;

function wordMatcher(word: string): (t: string) => boolean {
  if (word.endsWith("*")) {
    const stem = word.slice(0, -1);
    return (t) => t.startsWith(stem);
  }
  return (t) => t === word;
}

/** Compiles one rule (word, stem*, or phrase) into a test over a sentence's tokens. */
export function compileRule(rule: string): Matcher {
  const parts = rule.toLowerCase().split(/[\s-]+/).map(wordMatcher);
  if (parts.length === 1) {
    const one = parts[0] as (t: string) => boolean;
    return (tokens) => tokens.some(one);
  }
  return (tokens) => {
    outer: for (let i = 0; i + parts.length <= tokens.length; i++) {
      for (let j = 0; j < parts.length; j++) if (!(parts[j] as (t: string) => boolean)(tokens[i + j] as string)) continue outer;
      return true;
    }
    return false;
  };
}

interface CompiledRules {
  words: { category: Category; test: (t: string) => boolean }[];
  phrases: { category: Category; test: Matcher }[];
  /** Memo of single-word lookups: the vocabulary is small next to the number of sentences. */
  memo: Map<string, readonly Category[]>;
}
const compiled = new Map<Language, CompiledRules>();
const compiledCritical = new Map<Language, Matcher[]>();

function rulesFor(language: Language): CompiledRules {
  let rules = compiled.get(language);
  if (!rules) {
    rules = { words: [], phrases: [], memo: new Map() };
    for (const category of CATEGORIES) {
      for (const rule of RULES[language][category]) {
        if (/[\s-]/.test(rule)) rules.phrases.push({ category, test: compileRule(rule) });
        else rules.words.push({ category, test: wordMatcher(rule) });
      }
    }
    compiled.set(language, rules);
  }
  return rules;
}

/** The categories a sentence's tokens mention, in taxonomy order. */
export function categoriesOf(tokens: readonly string[], language: Language): Category[] {
  const rules = rulesFor(language);
  const found = new Set<Category>();
  for (const token of tokens) {
    let hit = rules.memo.get(token);
    if (!hit) {
      hit = [...new Set(rules.words.filter((w) => w.test(token)).map((w) => w.category))];
      if (rules.memo.size < 200_000) rules.memo.set(token, hit);
    }
    for (const c of hit) found.add(c);
  }
  for (const phrase of rules.phrases) if (!found.has(phrase.category) && phrase.test(tokens)) found.add(phrase.category);
  return CATEGORIES.filter((c) => found.has(c));
}

/** True when the tokens contain a health-and-safety phrase. */
export function isCritical(tokens: readonly string[], language: Language): boolean {
  let rules = compiledCritical.get(language);
  if (!rules) {
    rules = CRITICAL_RULES[language].map(compileRule);
    compiledCritical.set(language, rules);
  }
  return rules.some((test) => test(tokens));
}

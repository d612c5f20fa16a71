import { readFileSync } from "node:fs";
import path from "node:path";
import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { describe, expect, it } from "vitest";
import { createTranslator } from "next-intl";
import { LOCALES } from "./routing";

// Every count in the messages goes through the locale (docs/i18n.md): a number is `{n, number}` (grouped:
// "6,030", "6.030") or a plural (`{n, plural, one {# use} other {# uses}}`), never a bare `{n}` that
// prints "6030", and a count followed by a word is a plural, so "1 uses" cannot be written.

type Tree = { [key: string]: string | Tree };
const dir = path.join(import.meta.dirname, "messages");
const load = (locale: string) => JSON.parse(readFileSync(path.join(dir, `${locale}.json`), "utf8")) as Tree;
const flat = (tree: Tree, prefix = ""): [string, string][] =>
  Object.entries(tree).flatMap(([k, v]) =>
    typeof v === "string" ? [[`${prefix}${k}`, v] as [string, string]] : flat(v, `${prefix}${k}.`),
  );

/** Arguments that carry words, names, dates or ids the caller wrote, never a count. */
const TEXT_ARGS = new Set(
  (
    "actor browser category client code conditions date direction email error figure format group hour key label language " +
    "mesh message metric month name os phrase place places provider providers role sentiment severity stage state " +
    "status table target targetKind url version weekday when from to seconds minutes finished"
  ).split(" "),
);
// from/to are roles in live.events.role_changed; finished is a date in pipelines.report.meta: both are
// checked as numbers where they are numbers, by the typed form those messages use.

/** Words that may follow a plain number: units and the small words of "3 of 5", "2 more", "4 in, 4 out". */
const AFTER_NUMBER = new Set(
  "of de von to a bis and y und from aus more más weitere in out rein raus entrada salida ms B KB"
    .split(" ")
    .map((w) => w.toLowerCase()),
);

interface Finding {
  arg: string;
  problem: string;
}

function findings(elements: MessageFormatElement[], inPlural = false): Finding[] {
  const out: Finding[] = [];
  elements.forEach((el, i) => {
    const next = elements[i + 1];
    const nextWord = next?.type === TYPE.literal ? /^\s+(\p{L}+)/u.exec(next.value)?.[1] : undefined;
    if (el.type === TYPE.argument && !TEXT_ARGS.has(el.value))
      out.push({ arg: el.value, problem: "a bare number: write {x, number} or a plural" });
    const plainNumber = el.type === TYPE.number && !el.style;
    if (
      (plainNumber || (el.type === TYPE.argument && !TEXT_ARGS.has(el.value))) &&
      nextWord &&
      !AFTER_NUMBER.has(nextWord.toLowerCase())
    )
      out.push({ arg: el.value, problem: `a count before "${nextWord}": write it as a plural` });
    if (el.type === TYPE.pound && !inPlural) out.push({ arg: "#", problem: "# outside a plural" });
    if (el.type === TYPE.plural || el.type === TYPE.select)
      for (const option of Object.values(el.options))
        out.push(...findings(option.value, el.type === TYPE.plural || inPlural));
  });
  return out;
}

describe("counts in the messages", () => {
  it.each(LOCALES)("%s writes every count through a plural or a number format", (locale) => {
    const bad = flat(load(locale)).flatMap(([key, message]) =>
      findings(parse(message, { ignoreTag: true })).map((f) => `${key}: {${f.arg}} ${f.problem} — ${message}`),
    );
    expect(bad).toEqual([]);
  });

  it.each(LOCALES)("%s gives every plural an `other` form", (locale) => {
    const missing: string[] = [];
    const walk = (key: string, els: MessageFormatElement[]) => {
      for (const el of els) {
        if (el.type === TYPE.plural && !("other" in el.options)) missing.push(key);
        if (el.type === TYPE.plural || el.type === TYPE.select)
          for (const o of Object.values(el.options)) walk(key, o.value);
      }
    };
    for (const [key, message] of flat(load(locale))) walk(key, parse(message, { ignoreTag: true }));
    expect(missing).toEqual([]);
  });

  it("catches the walk's own findings", () => {
    const check = (m: string) => findings(parse(m, { ignoreTag: true })).map((f) => f.problem);
    expect(check("{used} of {max} uses")).toHaveLength(3);
    expect(check("{count} jobs")).toHaveLength(2);
    expect(check("{members, number} other members lose access")).toHaveLength(1);
    expect(check("{max, plural, one {# use} other {# uses}}")).toEqual([]);
    expect(check("Page {page, number} of {pages, number}")).toEqual([]);
    expect(check("{name} invites you")).toEqual([]);
  });

  it.each([
    ["en", "0 of 1 use", "6,030 jobs: 6,030 queued, 0 running, 1 succeeded, 0 failed, 0 cancelled", "58.3%"],
    ["es", "0 de 1 uso", "6030 trabajos: 6030 en cola, 0 en curso, 1 correcto, 0 fallidos, 0 cancelados", "58,3 %"],
    [
      "de",
      "0 von 1 Nutzung",
      "6.030 Aufträge: 6.030 wartend, 0 laufend, 1 erfolgreich, 0 fehlgeschlagen, 0 abgebrochen",
      "58,3 %",
    ],
  ])("%s renders the walk's examples with its own plural forms and grouping", (locale, uses, counts, share) => {
    const t = createTranslator({ locale, messages: load(locale) as never });
    const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");
    expect(t("meshDetail.uses" as never, { used: 0, max: 1 } as never)).toBe(uses);
    const jobs = { total: 6030, queued: 6030, running: 0, succeeded: 1, failed: 0, cancelled: 0 };
    expect(t("engine.counts" as never, jobs as never)).toBe(counts);
    expect(plain(t("engine.percent" as never, { value: 58.333 } as never))).toBe(share);
  });
});

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { describe, expect, it } from "vitest";
import { LOCALES } from "./routing";

type Tree = { [key: string]: string | Tree };

function keys(tree: Tree, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === "string" ? [`${prefix}${k}`] : keys(v, `${prefix}${k}.`),
  );
}

/** Every argument a message reads, typed or not (`{mesh}`, `{count, plural, ...}`, `{n, number}`). */
function argumentNames(elements: MessageFormatElement[]): string[] {
  return elements.flatMap((el) => {
    if (el.type === TYPE.literal || el.type === TYPE.pound || el.type === TYPE.tag) return [];
    const inner = "options" in el ? Object.values(el.options).flatMap((o) => argumentNames(o.value)) : [];
    return [el.value, ...inner];
  });
}

const dir = path.join(import.meta.dirname, "messages");
const load = (locale: string) => JSON.parse(readFileSync(path.join(dir, `${locale}.json`), "utf8")) as Tree;

describe("message files", () => {
  it("has one file per locale and nothing else", () => {
    expect(readdirSync(dir).sort()).toEqual(LOCALES.map((l) => `${l}.json`).sort());
  });

  it.each(LOCALES.filter((l) => l !== "en"))("%s has exactly the keys of en", (locale) => {
    const en = keys(load("en")).sort();
    const other = keys(load(locale)).sort();
    expect(
      other.filter((k) => !en.includes(k)),
      "keys only in this locale",
    ).toEqual([]);
    expect(
      en.filter((k) => !other.includes(k)),
      "keys missing in this locale",
    ).toEqual([]);
  });

  it.each(LOCALES)("%s has no empty message and keeps the placeholders of en", (locale) => {
    const flat = (tree: Tree, prefix = ""): [string, string][] =>
      Object.entries(tree).flatMap(([k, v]) =>
        typeof v === "string" ? [[`${prefix}${k}`, v] as [string, string]] : flat(v, `${prefix}${k}.`),
      );
    const en = new Map(flat(load("en")));
    for (const [key, value] of flat(load(locale))) {
      expect(value.trim(), key).not.toBe("");
      const placeholders = (s: string) => [...new Set(argumentNames(parse(s, { ignoreTag: true })))].sort();
      expect(placeholders(value), key).toEqual(placeholders(en.get(key) ?? ""));
    }
  });
});

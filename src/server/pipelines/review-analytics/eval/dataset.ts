import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { LANGUAGES, type Language } from "../language";
import { ZLabelled, type Labelled } from "./score";

export const SPLITS = ["dev", "test"] as const;
export type Split = (typeof SPLITS)[number];

const DIR = import.meta.dirname;

/** The labelled reviews of one split and language (GUIDE.md); a malformed line stops with its place. */
export function loadSplit(split: Split, language: Language): Labelled[] {
  const file = path.join(DIR, split, `${language}.jsonl`);
  return readFileSync(file, "utf8")
    .split("\n")
    .map((line, i) => [line.trim(), i + 1] as const)
    .filter(([line]) => line.length > 0)
    .map(([line, n]) => {
      const parsed = ZLabelled.safeParse(JSON.parse(line));
      if (!parsed.success)
        throw new Error(
          `${split}/${language}.jsonl:${n}: ${parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`,
        );
      if (parsed.data.language !== language)
        throw new Error(`${split}/${language}.jsonl:${n}: language ${parsed.data.language}`);
      return parsed.data;
    });
}

/** The languages a split has files for. */
export function languagesOf(split: Split): Language[] {
  const files = new Set(readdirSync(path.join(DIR, split)));
  return LANGUAGES.filter((l) => files.has(`${l}.jsonl`));
}

/** The training files (`train/*.jsonl`, any language), in name order. */
function trainingFiles(): string[] {
  const dir = path.join(DIR, "train");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .map((f) => path.join(dir, f));
}

/** The labelled reviews the learned label model is trained on (never dev or test). */
export function loadTraining(): Labelled[] {
  return trainingFiles().flatMap((file) =>
    readFileSync(file, "utf8")
      .split("\n")
      .map((line, i) => [line.trim(), i + 1] as const)
      .filter(([line]) => line.length > 0)
      .map(([line, n]) => {
        const parsed = ZLabelled.safeParse(JSON.parse(line));
        if (!parsed.success)
          throw new Error(
            `train/${path.basename(file)}:${n}: ${parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`,
          );
        return parsed.data;
      }),
  );
}

/** SHA-256 of the training files' names and contents: the model records it, a test compares. */
export function trainingDigest(): string {
  const h = createHash("sha256");
  for (const file of trainingFiles())
    h.update(path.basename(file)).update("\0").update(readFileSync(file)).update("\0");
  return h.digest("hex");
}

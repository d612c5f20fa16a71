// npm run eval:analytics [-- --split dev|test|all] [--path rules|rules-only|llm] [--hint] [--errors sentiment|categories|critical|language|topics] [--json] [--check]
// --path rules (the default) is what the pipeline runs: the rules and the learned label model;
// --path rules-only leaves the learned model out (the rules' own label). --path llm scores the classify stage with the language model of PIPELINE_LLM_BASE_URL (and
// PIPELINE_LLM_API_KEY, PIPELINE_LLM_MODEL, PIPELINE_LLM_TIMEOUT_MS, PIPELINE_LLM_BATCH) instead of the rules alone.
// Scores the review-analytics classifier against the labelled set (GUIDE.md) per split and language,
// beside a baseline measured in the same run (sentiment from the stars alone); then the complaint topics
// against their labelled set (eval/topics/, topic-eval.ts), beside the two-word phrases they replaced.
import { parseArgs } from "node:util";
import { CATEGORIES } from "../taxonomy";
import type { Language } from "../language";
import { languagesOf, loadSplit, SPLITS, type Split } from "./dataset";
import { llmClassifier } from "../model-classifier";
import { predictFromStars, predictWithModel, predictWithRules } from "./rules-path";
import { checkGoals, score, SENTIMENTS, type Labelled, type Predicted, type Scores } from "./score";
import { evaluateTopics, TOPIC_GOAL, topicGoals, topicTable } from "./topic-eval";

const { values } = parseArgs({
  options: {
    split: { type: "string", default: "all" },
    path: { type: "string", default: "rules" },
    hint: { type: "boolean", default: false },
    errors: { type: "string" },
    json: { type: "boolean", default: false },
    check: { type: "boolean", default: false },
  },
});
const splits: Split[] = values.split === "all" ? [...SPLITS] : SPLITS.filter((s) => s === values.split);
if (splits.length === 0) throw new Error(`--split must be dev, test or all`);
if (values.path !== "rules" && values.path !== "rules-only" && values.path !== "llm")
  throw new Error("--path must be rules, rules-only or llm");
const baseUrl = process.env.PIPELINE_LLM_BASE_URL;
if (values.path === "llm" && !baseUrl)
  throw new Error("--path llm needs PIPELINE_LLM_BASE_URL (an OpenAI-compatible endpoint)");
const model =
  values.path === "llm" && baseUrl
    ? llmClassifier(
        {
          baseUrl,
          apiKey: process.env.PIPELINE_LLM_API_KEY,
          model: process.env.PIPELINE_LLM_MODEL ?? "gpt-4o-mini",
          timeoutMs: Number(process.env.PIPELINE_LLM_TIMEOUT_MS ?? 60_000),
        },
        { batchSize: Number(process.env.PIPELINE_LLM_BATCH ?? 20) },
      )
    : null;

const f = (n: number) => n.toFixed(3);
const pad = (s: string | number, w: number) => String(s).padStart(w);

function pairsOf(items: readonly Labelled[], predicted: Map<string, Predicted>) {
  return items.map((gold) => ({
    gold,
    predicted: predicted.get(gold.id) ?? {
      language: "unknown" as const,
      sentiment: "neutral" as const,
      categories: [],
      critical: false,
    },
  }));
}

function row(name: string, s: Scores, base: Scores): string {
  const pc = s.sentiment.perClass;
  return [
    name.padEnd(6),
    pad(s.reviews, 7),
    pad(f(s.languageAccuracy), 8),
    pad(f(s.sentiment.accuracy), 8),
    pad(f(s.sentiment.macroF1), 8),
    pad(f(base.sentiment.macroF1), 8),
    ...SENTIMENTS.map((k) => pad(f(pc[k].f1), 6)),
    pad(f(s.categories.micro.precision), 6),
    pad(f(s.categories.micro.recall), 6),
    pad(f(s.categories.micro.f1), 6),
    pad(f(s.critical.precision), 6),
    pad(f(s.critical.recall), 6),
  ].join(" ");
}

const report: Record<string, unknown> = {};
let allMet = true;
for (const split of splits) {
  const perLanguage: Partial<Record<Language, Scores>> = {};
  const basePerLanguage: Partial<Record<Language, Scores>> = {};
  const everything: { gold: Labelled; predicted: Predicted }[] = [];
  const everythingBase: typeof everything = [];
  for (const language of languagesOf(split)) {
    const items = loadSplit(split, language);
    const pairs = pairsOf(
      items,
      model
        ? await predictWithModel(items, { hint: values.hint }, model)
        : predictWithRules(items, { hint: values.hint, learned: values.path !== "rules-only" }),
    );
    const basePairs = pairsOf(items, predictFromStars(items));
    perLanguage[language] = score(pairs);
    basePerLanguage[language] = score(basePairs);
    everything.push(...pairs);
    everythingBase.push(...basePairs);
  }
  const overall = score(everything);
  const baseline = score(everythingBase);
  const goals = checkGoals(overall, perLanguage);
  allMet &&= goals.every((g) => g.met);
  report[split] = { overall, perLanguage, baseline: { overall: baseline, perLanguage: basePerLanguage }, goals };
  if (values.json) continue;

  console.log(
    `\nreview-analytics classifier (${values.path} path), ${split} split (${overall.reviews} reviews; language ${values.hint ? "with the platform hint" : "detected without a hint"})`,
  );
  console.log(
    [
      "lang".padEnd(6),
      pad("reviews", 7),
      pad("lang-acc", 8),
      pad("sent-acc", 8),
      pad("macroF1", 8),
      pad("stars", 8),
      ...SENTIMENTS.map((k) => pad(k.slice(0, 3) + "-F1", 6)),
      pad("cat-P", 6),
      pad("cat-R", 6),
      pad("cat-F1", 6),
      pad("crit-P", 6),
      pad("crit-R", 6),
    ].join(" "),
  );
  for (const [language, s] of Object.entries(perLanguage))
    console.log(row(language, s, basePerLanguage[language as Language] as Scores));
  console.log(row("all", overall, baseline));
  console.log("(stars: macro-F1 of the baseline that reads the sentiment off the star rating alone)");
  console.log(`category F1: ${CATEGORIES.map((c) => `${c} ${f(overall.categories.perCategory[c].f1)}`).join(", ")}`);
  console.log(
    `critical: ${overall.critical.tp} found, ${overall.critical.fn} missed, ${overall.critical.fp} false alarms`,
  );
  console.log("sentiment confusion (rows: label, columns: predicted):");
  console.log(["".padEnd(10), ...SENTIMENTS.map((p) => pad(p, 9))].join(""));
  for (const g of SENTIMENTS)
    console.log([g.padEnd(10), ...SENTIMENTS.map((p) => pad(overall.sentiment.confusion[g][p], 9))].join(""));
  console.log("goals:");
  for (const g of goals)
    console.log(`  ${g.met ? "met    " : "NOT MET"} ${g.goal}: ${f(g.value)} (goal ≥ ${g.target})`);

  if (values.errors && values.errors !== "topics") {
    console.log(`\n${values.errors} errors:`);
    for (const { gold, predicted } of everything) {
      const wrong =
        values.errors === "sentiment"
          ? gold.sentiment !== predicted.sentiment
          : values.errors === "critical"
            ? gold.critical !== predicted.critical
            : values.errors === "language"
              ? gold.language !== predicted.language
              : [...gold.categories].sort().join() !== [...predicted.categories].sort().join();
      if (!wrong) continue;
      const said =
        values.errors === "sentiment"
          ? `${gold.sentiment} → ${predicted.sentiment}`
          : values.errors === "critical"
            ? `${gold.critical} → ${predicted.critical}`
            : values.errors === "language"
              ? `${gold.language} → ${predicted.language}`
              : `[${gold.categories.join(",")}] → [${predicted.categories.join(",")}]`;
      console.log(`${gold.id} (${gold.rating}★) ${said}: ${gold.text}`);
    }
  }
}
const topics = evaluateTopics();
const topicChecks = topicGoals(topics);
allMet &&= topicChecks.every((g) => g.met);
report.topics = { ...topics, goals: topicChecks };
if (!values.json) {
  console.log(topicTable(topics, values.errors === "topics"));
  console.log("goals:");
  for (const g of topicChecks)
    console.log(`  ${g.met ? "met    " : "NOT MET"} ${g.goal}: ${f(g.value)} (goal ≥ ${TOPIC_GOAL})`);
}
if (values.json) console.log(JSON.stringify(report, null, 2));
if (values.check && !allMet) process.exitCode = 1;

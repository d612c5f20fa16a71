import { chatJson, type LlmConfig } from "../llm-chat";
import type { NarrativeWriter, ReportFacts } from "./facts";
import { allowedNumbers, inventedNumbers } from "./numbers";
import { ZNarrative, type TNarrative } from "./narrative";

const INSTRUCTIONS =
  "You write the narrative of a customer-review analysis report for a restaurant's managers. " +
  "Answer with one JSON object with the keys headline (string), narrative (string), sentiment_insights, " +
  "category_insights, timeline_insights, action_plan, marketing_angles, priority_recommendations (arrays of strings). " +
  "Use only numbers that appear in the facts, written as they appear there. Quote guests only with the exact quote texts " +
  "given in the facts, in double quotes. Do not invent anything.";

/** Every quoted passage of the texts must be (part of) a real review excerpt from the facts. */
function quotesAreReal(texts: string[], facts: ReportFacts): boolean {
  const real = Object.values(facts.aggregates.quotes).flatMap((q) => [...q.positive, ...q.negative].map((x) => x.text));
  for (const text of texts) {
    for (const m of text.matchAll(/"([^"]{8,})"/g)) {
      const quoted = (m[1] as string).replace(/…$/, "");
      if (!real.some((r) => r.includes(quoted))) return false;
    }
  }
  return true;
}

/** Checks a writer's texts against the facts: the shape, the numbers and the quotes. */
export function checkNarrative(candidate: unknown, facts: ReportFacts): TNarrative {
  const narrative = ZNarrative.parse(candidate);
  const texts = [
    narrative.headline,
    narrative.narrative,
    ...Object.values(narrative).filter(Array.isArray).flat(),
  ] as string[];
  const allowed = allowedNumbers(facts);
  const invented = texts.flatMap((t) => inventedNumbers(t, allowed));
  if (invented.length)
    throw new Error(`narrative has numbers that are not in the data: ${invented.slice(0, 5).join(", ")}`);
  if (!quotesAreReal(texts, facts)) throw new Error("narrative quotes text that is not a review excerpt");
  return narrative;
}

/**
 * A writer that asks an OpenAI-compatible endpoint; any failure throws (the caller falls back).
 * English only: its text is the report's English narrative, and the Spanish and German narratives
 * stay the deterministic writer's (synthesize.ts), whose templates keep every figure cited.
 */
export function llmWriter(config: LlmConfig, fetchImpl?: typeof fetch): NarrativeWriter {
  return {
    name: "llm",
    async write(facts) {
      const user = JSON.stringify({
        ...facts,
        aggregates: { ...facts.aggregates, top_issues: facts.aggregates.top_issues.slice(0, 10) },
      });
      return checkNarrative(await chatJson(config, INSTRUCTIONS, user, fetchImpl), facts);
    },
  };
}

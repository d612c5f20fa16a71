import { createHash } from "node:crypto";
import { z } from "zod";
import { TtlCache } from "@/server/core/ttl-cache";
import { chatJson, type LlmConfig } from "./llm-chat";
import { SENTIMENT_LABELS, type SentimentLabel } from "./sentiment";
import { CATEGORIES, type Category } from "./taxonomy";

/** What a language model says about one review. */
export interface ModelLabel {
  sentiment: SentimentLabel;
  categories: Category[];
  critical: boolean;
}

export interface ModelInput {
  id: string;
  text: string;
  rating: number | null;
  language: string;
}

/** Classifies reviews with a model; a review missing from the answer keeps the rule-based result. */
export interface ModelClassifier {
  classify(
    reviews: readonly ModelInput[],
  ): Promise<{ labels: Map<string, ModelLabel>; requests: number; cached: number; failedBatches: number }>;
}

const ZItem = z.object({
  i: z.number().int().min(0),
  sentiment: z.enum(SENTIMENT_LABELS),
  categories: z.array(z.enum(CATEGORIES)).max(CATEGORIES.length),
  critical: z.boolean(),
});
const ZBatchAnswer = z.object({ results: z.array(ZItem) });

const INSTRUCTIONS =
  "You label customer reviews of restaurants, cafés, bars and hotels. For each review answer: sentiment " +
  "(positive, negative, neutral, or mixed when real praise and real complaints weigh about the same; judge the text, " +
  "sarcasm by what the author means, not the stars), categories (every aspect the text talks about, from: " +
  `${CATEGORIES.join(", ")}), and critical (true only when the author reports a health or safety problem that ` +
  "happened or was seen: illness after eating, vermin, foreign objects in food, serious hygiene failures, allergy " +
  "incidents, injuries; false when it is denied, hoped away or hypothetical). Answer with one JSON object " +
  '{"results": [{"i": <index>, "sentiment": ..., "categories": [...], "critical": ...}]} with one entry per review.';

export interface ModelClassifierOptions {
  /** Reviews per request (default 20). */
  batchSize?: number;
  /** Requests at once (default 2). */
  concurrency?: number;
  /** Answers kept by text hash (default 50,000; the oldest go first). */
  cacheSize?: number;
  fetchImpl?: typeof fetch;
}

const MAX_TEXT_CHARS = 2_000;

/** Key of the cache: the same text with the same stars and language is labelled once. */
export function textKey(r: Pick<ModelInput, "text" | "rating" | "language">): string {
  return createHash("sha256")
    .update(`${r.language}\u0000${r.rating ?? "-"}\u0000${r.text}`)
    .digest("base64url");
}

/**
 * A classifier over an OpenAI-compatible chat-completions endpoint (the PIPELINE_LLM_* settings of the
 * narrative writer): reviews in batches, answers cached by text hash, a batch that fails (status,
 * timeout, malformed or incomplete answer) left to the rule-based result.
 */
export function llmClassifier(config: LlmConfig, opts: ModelClassifierOptions = {}): ModelClassifier {
  const batchSize = opts.batchSize ?? 20;
  const concurrency = opts.concurrency ?? 2;
  const cacheSize = opts.cacheSize ?? 50_000;
  const fetchImpl = opts.fetchImpl;
  const cache = new TtlCache<string, ModelLabel>({ maxEntries: cacheSize, ttlMs: Infinity });
  const remember = (key: string, label: ModelLabel) => cache.set(key, label);

  async function ask(batch: readonly ModelInput[]): Promise<ModelLabel[]> {
    const user = JSON.stringify(
      batch.map((r, i) => ({ i, language: r.language, stars: r.rating, text: r.text.slice(0, MAX_TEXT_CHARS) })),
    );
    const answer = await chatJson(config, INSTRUCTIONS, user, fetchImpl);
    const { results } = ZBatchAnswer.parse(answer);
    const byIndex = new Map(results.map((r) => [r.i, r]));
    return batch.map((_, i) => {
      const r = byIndex.get(i);
      if (!r) throw new Error(`language model left out review ${i} of the batch`);
      return { sentiment: r.sentiment, categories: [...new Set(r.categories)], critical: r.critical };
    });
  }

  return {
    async classify(reviews) {
      const labels = new Map<string, ModelLabel>();
      const todo: { review: ModelInput; key: string }[] = [];
      let cached = 0;
      for (const review of reviews) {
        const key = textKey(review);
        const hit = cache.get(key);
        if (hit) {
          labels.set(review.id, hit);
          cached++;
        } else todo.push({ review, key });
      }
      const batches: (typeof todo)[] = [];
      for (let i = 0; i < todo.length; i += batchSize) batches.push(todo.slice(i, i + batchSize));
      let next = 0;
      let requests = 0;
      let failedBatches = 0;
      const lane = async () => {
        while (next < batches.length) {
          const batch = batches[next++]!;
          requests++;
          try {
            const answer = await ask(batch.map((b) => b.review));
            batch.forEach((b, i) => {
              labels.set(b.review.id, answer[i]!);
              remember(b.key, answer[i]!);
            });
          } catch {
            failedBatches++;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, batches.length) }, lane));
      return { labels, requests, cached, failedBatches };
    },
  };
}

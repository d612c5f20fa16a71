import { z } from "zod";
import { chatJson, type LlmConfig } from "../llm-chat";
import type { ReplyLanguageCode } from "./lang";

/** What the model is told about one review; `template` is the deterministic draft it may improve on. */
export interface ReplyPrompt {
  language: ReplyLanguageCode;
  author: string | null;
  rating: number | null;
  critical: boolean;
  negative: readonly string[];
  positive: readonly string[];
  text: string | null;
  template: string;
}

/** Writes one reply, or throws (callers keep the template on any failure). */
export interface ReplyWriter {
  write(prompt: ReplyPrompt): Promise<string>;
}

/** Characters of a review's text sent to the model. */
const MAX_TEXT_CHARS = 2_000;
/** A model reply longer than this is refused (the drafts' own bound is 4,000). */
const MAX_REPLY_CHARS = 2_000;

const LANGUAGE_NAMES: Record<ReplyLanguageCode, string> = { en: "English", es: "Spanish", de: "German" };

const INSTRUCTIONS =
  "You write the public reply of a restaurant's owner to one customer review. Answer only with JSON " +
  '{"reply": "<text>"}. Write in the language named in the request, politely, in at most 120 words; address the ' +
  "reviewer by name when one is given; acknowledge each complaint category named; when `critical` is true, say " +
  "that health and safety come first, that the manager is looking into it, and ask the reviewer to get in touch " +
  "directly; never admit legal liability, promise money or invent facts not in the review. The `template` is an " +
  "acceptable reply: keep its facts, make it read naturally for this review.";

const ZReplyAnswer = z.object({ reply: z.string().trim().min(20).max(MAX_REPLY_CHARS) });

/** A reply writer over an OpenAI-compatible endpoint (PIPELINE_LLM_*), JSON mode, temperature 0. */
export function llmReplyWriter(config: LlmConfig, fetchImpl?: typeof fetch): ReplyWriter {
  return {
    async write(p) {
      const user = JSON.stringify({
        language: LANGUAGE_NAMES[p.language],
        reviewer: p.author,
        stars: p.rating,
        critical: p.critical,
        complaints: p.negative,
        praise: p.positive,
        review: p.text?.slice(0, MAX_TEXT_CHARS) ?? null,
        template: p.template,
      });
      return ZReplyAnswer.parse(await chatJson(config, INSTRUCTIONS, user, fetchImpl)).reply;
    },
  };
}

/**
 * The model's replies for the first `max` prompts (callers order them by importance), `concurrency`
 * requests at once; null where the model was not asked or failed (the template stays).
 */
export async function modelReplies(
  prompts: readonly ReplyPrompt[],
  writer: ReplyWriter,
  opts: { max: number; concurrency?: number },
): Promise<{ replies: (string | null)[]; failed: number }> {
  const replies: (string | null)[] = prompts.map(() => null);
  const asked = Math.min(prompts.length, opts.max);
  let next = 0;
  let failed = 0;
  const lane = async () => {
    while (next < asked) {
      const i = next++;
      try {
        replies[i] = await writer.write(prompts[i]!);
      } catch {
        failed += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency ?? 2) }, lane));
  return { replies, failed };
}

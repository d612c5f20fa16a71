import { z } from "zod";

/** Settings of an OpenAI-compatible chat-completions endpoint (PIPELINE_LLM_* variables). */
export interface LlmConfig {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
}

const ZChatAnswer = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string() }) })).min(1),
});

/**
 * One chat-completions request in JSON mode (temperature 0) with a system and a user message; the
 * answer's content parsed as JSON (a ```json fence around it is tolerated). Any HTTP error, timeout or
 * malformed answer throws: callers fall back to their deterministic result.
 */
export async function chatJson(
  config: LlmConfig,
  system: string,
  user: string,
  fetchImpl: typeof fetch = fetch,
): Promise<unknown> {
  const res = await fetchImpl(`${config.baseUrl.replace(/\/$/, "")}/chat/completions`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
    },
    body: JSON.stringify({
      model: config.model,
      temperature: 0,
      response_format: { type: "json_object" },
      messages: [
        { role: "system", content: system },
        { role: "user", content: user },
      ],
    }),
    signal: AbortSignal.timeout(config.timeoutMs),
  });
  if (!res.ok) throw new Error(`language model answered ${res.status}`);
  const content = ZChatAnswer.parse(await res.json()).choices[0]!.message.content.replace(
    /^```(?:json)?\s*|\s*```$/g,
    "",
  );
  return JSON.parse(content) as unknown;
}

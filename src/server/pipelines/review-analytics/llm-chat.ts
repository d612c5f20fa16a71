import { z } from "zod";
import { outboundRequest } from "@/server/core/outbound/request";

/** Settings of an OpenAI-compatible chat-completions endpoint (PIPELINE_LLM_* variables). */
export interface LlmConfig {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
  /**
   * Whether the endpoint may be on a loopback or private address (PIPELINE_LLM_ALLOW_PRIVATE: a model
   * served on the operator's own network); otherwise the outbound guard refuses such addresses.
   */
  allowPrivate?: boolean;
}

/** The most of a model's answer that is read. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

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
  /** Tests only: another transport (the product always goes through the outbound guard). */
  fetchImpl?: typeof fetch,
): Promise<unknown> {
  const url = `${config.baseUrl.replace(/\/$/, "")}/chat/completions`;
  const headers = {
    "content-type": "application/json",
    ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
  };
  const body = JSON.stringify({
    model: config.model,
    temperature: 0,
    response_format: { type: "json_object" },
    messages: [
      { role: "system", content: system },
      { role: "user", content: user },
    ],
  });
  let status: number;
  let text: string;
  if (fetchImpl) {
    const res = await fetchImpl(url, { method: "POST", headers, body, signal: AbortSignal.timeout(config.timeoutMs) });
    status = res.status;
    text = await res.text();
  } else {
    // The outbound guard, as callbacks and scrapers: every address checked, the connection pinned to the
    // checked one, one deadline to the answer's last byte, the answer bounded.
    const res = await outboundRequest(new URL(url), {
      method: "POST",
      headers,
      body,
      deadlineMs: config.timeoutMs,
      maxResponseBytes: MAX_ANSWER_BYTES,
      overflow: "error",
      allowPrivate: config.allowPrivate ?? false,
    });
    status = res.status;
    text = res.body.toString("utf8");
  }
  if (status < 200 || status >= 300) throw new Error(`language model answered ${status}`);
  const content = ZChatAnswer.parse(JSON.parse(text)).choices[0]!.message.content.replace(
    /^```(?:json)?\s*|\s*```$/g,
    "",
  );
  return JSON.parse(content) as unknown;
}

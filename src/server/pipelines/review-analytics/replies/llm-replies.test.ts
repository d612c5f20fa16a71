// Reply drafts through a language model: the plumbing against a local OpenAI-compatible stub on
// 127.0.0.1 (what is sent, the cap, the fallback to the template); it claims nothing about quality.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { composeReply } from "./compose";
import { llmReplyWriter, modelReplies, type ReplyPrompt } from "./llm-replies";

let mode: "good" | "fail" | "garbage" = "good";
const sent: Record<string, unknown>[] = [];
const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c: Buffer) => (body += c.toString()));
  req.on("end", () => {
    const user = JSON.parse(JSON.parse(body).messages[1].content) as Record<string, unknown>;
    sent.push(user);
    if (mode === "fail") return res.writeHead(503).end("busy");
    const content =
      mode === "garbage" ? "sure! here you go" : JSON.stringify({ reply: `MODEL reply in ${String(user.language)}.` });
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ choices: [{ message: { content } }] }));
  });
});
let baseUrl = "";
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  mode = "good";
  sent.length = 0;
});

const facts = { author: "Lucía", rating: 1, critical: true, negative: ["food"], positive: [] };
const prompt = (): ReplyPrompt => {
  const template = composeReply({ ...facts, language: "es" });
  return { ...facts, language: template.language, text: "Intoxicación alimentaria.", template: template.text };
};
const writer = () =>
  llmReplyWriter({ baseUrl, apiKey: undefined, model: "stub", timeoutMs: 2_000, allowPrivate: true });

describe("reply drafts through a language model", () => {
  it("sends the review's facts, text and template and takes the model's reply", async () => {
    const { replies, failed } = await modelReplies([prompt()], writer(), { max: 10 });
    expect(replies).toEqual(["MODEL reply in Spanish."]);
    expect(failed).toBe(0);
    expect(sent[0]).toMatchObject({
      language: "Spanish",
      reviewer: "Lucía",
      stars: 1,
      critical: true,
      complaints: ["food"],
      review: "Intoxicación alimentaria.",
    });
    expect(String(sent[0]?.template)).toContain("la salud y la seguridad");
  });

  it("goes through the outbound guard: an endpoint on a private address is refused unless allowed", async () => {
    const guarded = llmReplyWriter({ baseUrl, apiKey: undefined, model: "stub", timeoutMs: 2_000 });
    const { replies, failed } = await modelReplies([prompt()], guarded, { max: 10 });
    // The template stays, and the stub never heard of the review.
    expect(failed).toBe(1);
    expect(replies).toEqual([null]);
    expect(sent).toEqual([]);
  });

  it("asks for at most `max` drafts", async () => {
    const { replies } = await modelReplies([prompt(), prompt(), prompt()], writer(), { max: 2 });
    expect(replies.filter((r) => r !== null)).toHaveLength(2);
    expect(replies[2]).toBeNull();
    expect(sent).toHaveLength(2);
  });

  it("an HTTP error or a malformed answer leaves the template (null) and is counted", async () => {
    mode = "fail";
    expect(await modelReplies([prompt()], writer(), { max: 5 })).toEqual({ replies: [null], failed: 1 });
    mode = "garbage";
    expect(await modelReplies([prompt(), prompt()], writer(), { max: 5 })).toEqual({
      replies: [null, null],
      failed: 2,
    });
  });
});

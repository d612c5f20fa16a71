// Issue 20, point 3: the plumbing of model-assisted classification against a local OpenAI-compatible
// stub on 127.0.0.1 (batching, caching, fallback, the cross-check); it claims nothing about accuracy.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { classifyWithModel } from "./classify";
import { llmClassifier } from "./model-classifier";
import { normalize } from "./normalize";

type Mode = "good" | "fail" | "garbage" | "incomplete" | "slow";
let mode: Mode = "good";
const batches: number[] = [];
const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c: Buffer) => (body += c.toString()));
  req.on("end", () => {
    const sent = JSON.parse(JSON.parse(body).messages[1].content) as { i: number; text: string }[];
    batches.push(sent.length);
    if (mode === "fail") return res.writeHead(503).end("busy");
    if (mode === "slow") return setTimeout(() => res.writeHead(200).end("{}"), 1_500);
    if (mode === "garbage")
      return res
        .writeHead(200, { "content-type": "application/json" })
        .end('{"choices":[{"message":{"content":"sure! here you go"}}]}');
    // The stub's "model": every text is neutral about ambience; a text with "STUB-CRITICAL" is critical.
    const results = sent
      .filter((_, k) => mode !== "incomplete" || k > 0)
      .map((r) => ({
        i: r.i,
        sentiment: "neutral",
        categories: ["ambience"],
        critical: r.text.includes("STUB-CRITICAL"),
      }));
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ choices: [{ message: { content: JSON.stringify({ results }) } }] }));
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
  batches.length = 0;
});

const reviews = (n: number, tag = "") =>
  normalize(
    Array.from({ length: n }, (_, i) => ({
      id: `r${i}`,
      author: null,
      rating: 5,
      // Rules: positive, food; review 0 reports a hazard in the rules' eyes ("a hair in my soup").
      text: i === 0 ? `A hair in my soup, disgusting ${tag}` : `The pasta number ${i} was delicious ${tag}`,
      language: "en",
      publishedAt: null,
    })),
  ).output;
const classifier = (opts: { batchSize?: number; timeoutMs?: number } = {}) =>
  llmClassifier(
    { baseUrl, apiKey: "sk-test", model: "stub", timeoutMs: opts.timeoutMs ?? 1_000, allowPrivate: true },
    { batchSize: opts.batchSize ?? 20 },
  );

describe("model-assisted classification", () => {
  it("asks in batches and takes the model's sentiment and categories", async () => {
    const r = await classifyWithModel(reviews(45), classifier());
    expect(batches).toEqual([20, 20, 5]);
    const one = r.output.find((x) => x.id === "r7");
    expect(one).toMatchObject({ label: "neutral", modelCategories: ["ambience"], labelSource: "model" });
    expect(r.warnings?.at(-1)).toMatch(
      /^45 of 45 texts labelled by the language model \(0 from its cache, 3 requests, 0 failed/,
    );
  });

  it("answers the same texts from its cache by text hash", async () => {
    const model = classifier();
    await classifyWithModel(reviews(30), model);
    batches.length = 0;
    const again = await classifyWithModel(reviews(30), model);
    expect(batches).toEqual([]);
    expect(again.warnings?.at(-1)).toMatch(
      /^30 of 30 texts labelled by the language model \(30 from its cache, 0 requests/,
    );
    // A changed text is asked again.
    await classifyWithModel(reviews(3, "(edited)"), model);
    expect(batches).toEqual([3]);
  });

  it.each(["fail", "garbage", "incomplete", "slow"] as const)(
    "keeps the rules' result when the endpoint %ss",
    async (failing) => {
      mode = failing;
      const r = await classifyWithModel(reviews(25), classifier({ batchSize: 10, timeoutMs: 500 }));
      expect(batches).toEqual([10, 10, 5]);
      const one = r.output.find((x) => x.id === "r3");
      expect(one).toMatchObject({ label: "positive" });
      expect(one?.labelSource).toBeUndefined();
      expect(r.warnings?.at(-1)).toMatch(
        /^0 of 25 texts labelled by the language model \(0 from its cache, 3 requests, 3 failed/,
      );
    },
  );

  it("cross-checks the critical flag: a hazard either side finds is kept", async () => {
    const r = await classifyWithModel(
      normalize([
        {
          id: "rules-only",
          author: null,
          rating: 1,
          text: "A hair in my soup, disgusting",
          language: "en",
          publishedAt: null,
        },
        {
          id: "model-only",
          author: null,
          rating: 1,
          text: "Something odd happened STUB-CRITICAL",
          language: "en",
          publishedAt: null,
        },
      ]).output,
      classifier(),
    );
    expect(r.output.map((x) => [x.id, x.critical])).toEqual([
      ["rules-only", true],
      ["model-only", true],
    ]);
    expect(r.warnings?.at(-1)).toMatch(/critical flag of 2$/);
  });

  it("with no model configured, is the rules' classify", async () => {
    const r = await classifyWithModel(reviews(3), null);
    expect(batches).toEqual([]);
    expect(r.output.every((x) => x.labelSource === undefined)).toBe(true);
  });
});

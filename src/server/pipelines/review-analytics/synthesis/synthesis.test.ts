import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aggregate } from "../aggregate";
import { classify } from "../classify";
import { generateReviews } from "../generator";
import { normalize } from "../normalize";
import { route } from "../route";
import { writeDeterministic } from "./deterministic-writer";
import { buildFacts } from "./facts";
import { llmWriter } from "./llm-writer";
import { allowedNumbers, inventedNumbers, numbersIn } from "./numbers";
import { detectReportFormat, type ReportV2 } from "./report";
import { synthesize } from "./synthesize";

const NOW = () => new Date("2026-07-01T08:00:00Z");
const raw = generateReviews({ count: 400, seed: 7 });
const agg = aggregate(route(classify(normalize(raw).output).output).output, raw.length).output;
const facts = buildFacts(agg);

function texts(r: ReportV2): string[] {
  return [
    r.executive_summary.headline,
    r.executive_summary.narrative,
    ...r.sentiment_insights,
    ...r.category_insights,
    ...r.timeline_insights,
    ...r.action_plan,
    ...r.marketing_angles,
    ...r.priority_recommendations,
    ...r.critical_issues.map((c) => c.summary),
  ];
}

describe("report format detection (spec rule)", () => {
  it("v2 needs report_version and executive_summary; v1 has neither; one alone is unknown", () => {
    expect(detectReportFormat({ report_version: "2.0", executive_summary: { headline: "h" } })).toBe("v2");
    expect(detectReportFormat({ summary: "legacy", recommendations: [] })).toBe("v1");
    expect(detectReportFormat({ report_version: null, executive_summary: null, summary: "x" })).toBe("v1");
    expect(detectReportFormat({ report_version: "2.0" })).toBe("unknown");
    expect(detectReportFormat({ executive_summary: {} })).toBe("unknown");
    expect(detectReportFormat([])).toBe("unknown");
    expect(detectReportFormat("text")).toBe("unknown");
  });
});

describe("deterministic synthesis", () => {
  it("writes a v2 report with every section, the same for the same data", async () => {
    const a = (await synthesize(agg, { now: NOW })).output;
    const b = (await synthesize(agg, { now: NOW })).output;
    expect(a).toEqual(b);
    expect(detectReportFormat(a)).toBe("v2");
    expect(a.writer).toBe("deterministic");
    for (const key of [
      "sentiment_insights",
      "category_insights",
      "timeline_insights",
      "action_plan",
      "marketing_angles",
      "priority_recommendations",
    ] as const) {
      expect(a[key].length, key).toBeGreaterThan(0);
    }
    expect(a.risk_scorecard.length).toBe(6);
    expect(a.action_matrix[0]).toMatchObject({ priority: 1, category: a.risk_scorecard[0]?.category });
    expect(a.tracking_kpis.map((k) => k.kpi)).toContain("average_rating");
    expect(a.executive_summary.narrative).toContain(`${agg.totals.reviews} reviews were analysed`);
  });

  it("uses only numbers from the data in every text", async () => {
    const r = (await synthesize(agg, { now: NOW })).output;
    const allowed = allowedNumbers(facts);
    for (const t of texts(r)) expect(inventedNumbers(t, allowed), t).toEqual([]);
    // The guard is not vacuous: a number that is not in the data is caught.
    expect(inventedNumbers("Rating rose by 12345.6 points", allowed)).toEqual(["12345.6"]);
    expect(numbersIn("1,234 reviews, 48.5% and 2026-03")).toEqual(["1234", "48.5", "2026", "3"]);
  });

  it("quotes only real review excerpts, and passes strengths through with percentage and top_quotes", async () => {
    const r = (await synthesize(agg, { now: NOW })).output;
    const reviewTexts = normalize(raw).output.map((x) => x.text);
    const quotes = r.critical_issues.flatMap((c) => c.quotes.map((q) => q.text));
    const strengths = r.strengths_to_protect as { category: string; percentage: number; top_quotes: string[] }[];
    expect(strengths.length).toBeGreaterThan(0);
    expect(typeof strengths[0]?.percentage).toBe("number");
    for (const q of [...quotes, ...strengths.flatMap((s) => s.top_quotes)]) {
      expect(
        reviewTexts.some((t) => t.includes(q.replace(/…$/, ""))),
        q,
      ).toBe(true);
    }
    for (const t of r.marketing_angles) {
      for (const m of t.matchAll(/"([^"]+)"/g)) expect(reviewTexts.some((x) => x.includes(m[1] as string))).toBe(true);
    }
  });

  it("handles a run with no reviews", async () => {
    const empty = aggregate(route(classify(normalize([]).output).output).output, 0).output;
    const r = (await synthesize(empty, { now: NOW })).output;
    expect(r.executive_summary.headline).toContain("0 reviews");
    expect(r.timeline_insights).toEqual(["No review has a publication date."]);
    expect(r.risk_scorecard).toEqual([]);
  });

  it("the narrative is a pure function of the facts", () => {
    expect(writeDeterministic(facts)).toEqual(writeDeterministic(buildFacts(agg)));
  });
});

describe("language-model writer", () => {
  let mode: "fail" | "good" | "invent" | "garbage" | "slow" = "fail";
  let requests = 0;
  let auth = "";
  const server = http.createServer((req, res) => {
    requests++;
    auth = req.headers.authorization ?? "";
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      if (mode === "fail") return res.writeHead(500).end("boom");
      if (mode === "slow") return setTimeout(() => res.writeHead(200).end("{}"), 2_000);
      if (mode === "garbage")
        return res
          .writeHead(200, { "content-type": "application/json" })
          .end('{"choices":[{"message":{"content":"not json"}}]}');
      const good = writeDeterministic(facts);
      const content =
        mode === "good"
          ? { ...good, headline: `LLM: ${good.headline}` }
          : { ...good, headline: "Ratings rose 987654 percent" };
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ choices: [{ message: { content: JSON.stringify(content) } }] }));
    });
  });
  let baseUrl = "";
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  const writer = () =>
    llmWriter({ baseUrl, apiKey: "sk-test", model: "test-model", timeoutMs: 500, allowPrivate: true });

  it("is used when the endpoint answers a faithful narrative", async () => {
    mode = "good";
    const r = await synthesize(agg, { writer: writer(), now: NOW });
    expect(r.output.writer).toBe("llm");
    expect(r.output.executive_summary.headline.startsWith("LLM: ")).toBe(true);
    // English only: the other languages stay the deterministic writer's.
    expect(r.output.narratives?.en?.headline).toBe(r.output.executive_summary.headline);
    expect(r.output.narratives?.es?.headline).toBe(writeDeterministic(facts, "es").headline);
    expect(auth).toBe("Bearer sk-test");
    expect(r.warnings).toEqual([]);
  });

  for (const failing of ["fail", "invent", "garbage", "slow"] as const) {
    it(`falls back to the deterministic writer when the endpoint ${failing}s`, async () => {
      mode = failing;
      const before = requests;
      const r = await synthesize(agg, { writer: writer(), now: NOW });
      expect(requests).toBe(before + 1);
      expect(r.output.writer).toBe("deterministic");
      expect(r.output.executive_summary.headline).toBe(writeDeterministic(facts).headline);
      expect(r.warnings?.[0]).toMatch(/^language-model writer failed/);
    });
  }

  it("falls back when nothing listens", async () => {
    const r = await synthesize(agg, {
      writer: llmWriter({
        baseUrl: "http://127.0.0.1:1/v1",
        apiKey: undefined,
        model: "m",
        timeoutMs: 500,
        allowPrivate: true,
      }),
      now: NOW,
    });
    expect(r.output.writer).toBe("deterministic");
  });
});

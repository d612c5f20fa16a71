import { z } from "zod";
import { describe, expect, it } from "vitest";
import { runStages, StageFailure } from "./engine";
import { NO_ITEMS_WARNING } from "./stage-warnings";
import type { PipelineDefinition, PipelineDeps } from "./types";

const deps: PipelineDeps = {
  db: null as unknown as PipelineDeps["db"],
  now: () => new Date("2026-05-01T00:00:00Z"),
  readScopeApiKeyId: null,
};

function pipeline(failAt: string | null, items?: number): PipelineDefinition {
  return {
    id: "numbers",
    name: "Numbers",
    description: "test",
    version: "1",
    inputSchema: z.object({ n: z.number() }) as z.ZodType<unknown>,
    stages: [
      {
        id: "make",
        name: "Make",
        count: () => 1,
        run: (n: number) => ({ output: Array.from({ length: n }, (_, i) => i), itemsOut: n }),
      },
      {
        id: "evens",
        name: "Evens",
        count: (l: number[]) => l.length,
        run: (l: number[]) => {
          if (failAt === "evens") throw new Error("evens exploded");
          const out = l.filter((x) => x % 2 === 0);
          return { output: out, itemsOut: out.length, warnings: ["odd ones dropped"] };
        },
      },
      {
        id: "sum",
        name: "Sum",
        count: (l: number[]) => l.length,
        run: (l: number[]) => ({ output: l.reduce((s, x) => s + x, 0), itemsOut: 1 }),
      },
    ] as unknown as PipelineDefinition["stages"],
    dashboard: [],
    prepare: (input) => {
      if (failAt === "prepare") return Promise.reject(new Error("no data"));
      const n = (input as { n: number }).n;
      return Promise.resolve({ first: n, ctx: null, ...(items === undefined ? {} : { scope: { items, places: [] } }) });
    },
    finish: (last) => ({ result: { sum: last }, synthesis: null }),
    widgetData: () => null,
  };
}

describe("engine", () => {
  it("runs the stages in order with metrics per stage and reports progress", async () => {
    const seen: string[] = [];
    const run = await runStages(pipeline(null), { n: 10 }, deps, ({ currentStage, metrics }) => {
      seen.push(`${currentStage}:${metrics[currentStage!]?.status}`);
    });
    expect(run.outcome.result).toEqual({ sum: 20 });
    expect(seen).toEqual([
      "make:running",
      "make:succeeded",
      "evens:running",
      "evens:succeeded",
      "sum:running",
      "sum:succeeded",
    ]);
    expect(run.metrics.evens).toMatchObject({
      status: "succeeded",
      items_in: 10,
      items_out: 5,
      warnings: ["odd ones dropped"],
      errors: [],
    });
    expect(typeof run.metrics.evens?.duration_ms).toBe("number");
    expect(run.totalDurationMs).toBeGreaterThanOrEqual(0);
  });

  it("records the failing stage and its error, keeps earlier metrics and skips the rest", async () => {
    const error = await runStages(pipeline("evens"), { n: 4 }, deps).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StageFailure);
    const failure = error as StageFailure;
    expect(failure.stage).toBe("evens");
    expect(failure.reason).toBe("evens exploded");
    expect(failure.metrics.make).toMatchObject({ status: "succeeded", items_in: 1, items_out: 4 });
    expect(failure.metrics.evens).toMatchObject({
      status: "failed",
      items_in: 4,
      items_out: null,
      errors: ["evens exploded"],
    });
    expect(failure.metrics.sum).toMatchObject({ status: "skipped", duration_ms: null });
  });

  it("a failed preparation fails as stage prepare with every stage skipped", async () => {
    const failure = (await runStages(pipeline("prepare"), { n: 4 }, deps).catch((e: unknown) => e)) as StageFailure;
    expect(failure.stage).toBe("prepare");
    expect(Object.values(failure.metrics).map((m) => m.status)).toEqual(["skipped", "skipped", "skipped"]);
  });

  it("a run that read nothing skips every stage and succeeds with an empty result", async () => {
    const seen: string[] = [];
    const run = await runStages(
      pipeline("evens", 0),
      { n: 4 },
      deps,
      ({ currentStage }) => void seen.push(String(currentStage)),
    );
    expect(run.outcome).toEqual({ result: {}, synthesis: null });
    expect(run.scope).toEqual({ items: 0, places: [] });
    expect(seen).toEqual([]);
    for (const m of Object.values(run.metrics))
      expect(m).toMatchObject({ status: "skipped", items_in: 0, items_out: 0, warnings: [NO_ITEMS_WARNING] });
  });
});

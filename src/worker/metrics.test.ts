import { describe, expect, it } from "vitest";
import {
  createWorkerMetrics,
  executionObserver,
  observeCallbackAttempt,
  observeJobRun,
  responseOf,
  reviewObserver,
} from "./metrics";

const attempt = (state: "pending" | "delivered" | "failed", status: number | null, error: string | null) => ({
  deliveryId: "d",
  previous: 0,
  state,
  status,
  error,
  durationMs: 120,
  next: null,
  deliveredAt: null,
});

describe("the worker's metrics", () => {
  it("class callback answers into a fixed set of values", () => {
    expect(responseOf({ status: 204, error: null })).toBe("2xx");
    expect(responseOf({ status: 503, error: null })).toBe("5xx");
    expect(responseOf({ status: 999, error: null })).toBe("other");
    expect(responseOf({ status: null, error: "timeout" })).toBe("timeout");
    expect(responseOf({ status: null, error: "network" })).toBe("network");
    expect(responseOf({ status: null, error: "no_signing_secret" })).toBe("no_secret");
    expect(responseOf({ status: null, error: "destination_refused:private" })).toBe("refused");
    expect(responseOf({ status: null, error: "anything else" })).toBe("other");
  });

  it("count jobs, runs, callbacks and stages with bounded labels", async () => {
    const m = createWorkerMetrics();
    const observer = reviewObserver(m);
    observer.jobFinished?.({ status: "failed", errorClass: "blocked", durationMs: 10 });
    observer.jobFinished?.({ status: "failed", errorClass: "made_up", durationMs: 10 });
    observer.jobFinished?.({ status: "succeeded", errorClass: null, durationMs: 10 });
    observeJobRun(m, "retry_later", 0.2);
    observeJobRun(m, "something new", 0.2);
    observeCallbackAttempt(m, attempt("pending", 500, null));
    observeCallbackAttempt(m, attempt("delivered", 200, null));
    executionObserver(m).executionFinished?.({
      pipelineId: "review-analytics",
      status: "failed",
      totalDurationMs: 900,
      metrics: {
        clean: {
          status: "succeeded",
          duration_ms: 400,
          items_in: 1,
          items_out: 1,
          warnings: [],
          errors: [],
          started_at: null,
          finished_at: null,
        },
        classify: {
          status: "failed",
          duration_ms: 500,
          items_in: 1,
          items_out: null,
          warnings: [],
          errors: ["x"],
          started_at: null,
          finished_at: null,
        },
        report: {
          status: "skipped",
          duration_ms: null,
          items_in: null,
          items_out: null,
          warnings: [],
          errors: [],
          started_at: null,
          finished_at: null,
        },
      },
    });
    const text = await m.registry.metrics();
    expect(text).toMatch(/^worker_jobs_finished_total\{state="failed",error_class="blocked"\} 1$/m);
    expect(text).toMatch(/^worker_jobs_finished_total\{state="failed",error_class="other"\} 1$/m);
    expect(text).toMatch(/^worker_jobs_finished_total\{state="succeeded",error_class="none"\} 1$/m);
    expect(text).toMatch(/^worker_job_runs_total\{outcome="retry_later"\} 1$/m);
    expect(text).toMatch(/^worker_job_runs_total\{outcome="other"\} 1$/m);
    expect(text).toMatch(/^worker_callback_attempts_total\{result="retry",response="5xx"\} 1$/m);
    expect(text).toMatch(/^worker_callback_attempts_total\{result="delivered",response="2xx"\} 1$/m);
    expect(text).toMatch(/^worker_callback_duration_seconds_sum\{result="delivered"\} 0\.12$/m);
    expect(text).toMatch(
      /^worker_pipeline_stage_duration_seconds_count\{pipeline="review-analytics",stage="clean",status="succeeded"\} 1$/m,
    );
    expect(text).toMatch(
      /^worker_pipeline_stage_duration_seconds_count\{pipeline="review-analytics",stage="classify",status="failed"\} 1$/m,
    );
    expect(text).not.toMatch(/stage="report"/);
    expect(text).toMatch(/^worker_pipeline_executions_total\{pipeline="review-analytics",status="failed"\} 1$/m);
  });

  it("read the queue gauges at scrape time, -1 when the reading fails", async () => {
    let fail = false;
    const m = createWorkerMetrics({
      queue: async () => {
        if (fail) throw new Error("down");
        return { queued: 7, running: 2, dueJobs: 5, pendingCallbacks: 3, dueCallbacks: 1 };
      },
      pipelinesWaiting: async () => 4,
    });
    const text = await m.registry.metrics();
    expect(text).toMatch(/^worker_jobs\{state="queued"\} 7$/m);
    expect(text).toMatch(/^worker_jobs\{state="running"\} 2$/m);
    expect(text).toMatch(/^worker_queue_depth\{queue="jobs"\} 5$/m);
    expect(text).toMatch(/^worker_queue_depth\{queue="callbacks"\} 1$/m);
    expect(text).toMatch(/^worker_queue_depth\{queue="pipelines"\} 4$/m);
    expect(text).toMatch(/^worker_callbacks_pending 3$/m);
    fail = true;
    await new Promise((r) => setTimeout(r, 1_100));
    expect(await m.registry.metrics()).toMatch(/^worker_jobs\{state="queued"\} -1$/m);
  });
});

import { describe, expect, it } from "vitest";
import { abortError, classifyError, errorForStatus, parseRetryAfter } from "./classify";
import { SCRAPE_ERROR_CLASSES, ScrapeError } from "./types";

describe("errorForStatus", () => {
  it.each([
    [200, undefined, undefined],
    [404, "target_not_found", false],
    [410, "target_not_found", false],
    [403, "blocked", false],
    [429, "rate_limited", true],
    [503, "network", true],
    [502, "network", true],
    [504, "timeout", true],
    [500, "internal", false],
    [418, "internal", false],
  ] as const)("%s is %s (transient %s)", (status, errorClass, transient) => {
    const error = errorForStatus(status, "test");
    expect(error?.errorClass).toBe(errorClass);
    expect(error?.transient).toBe(transient);
    if (error) expect(error.status).toBe(status);
  });

  it("keeps Retry-After on 429", () => {
    expect(errorForStatus(429, "x", "7")?.retryAfterSeconds).toBe(7);
    expect(parseRetryAfter(new Date(Date.now() + 5_000).toUTCString())).toBeGreaterThanOrEqual(4);
    expect(parseRetryAfter("soon")).toBeUndefined();
  });
});

describe("classifyError", () => {
  it("tells network failures from timeouts and anything else", () => {
    const refused = new TypeError("fetch failed", {
      cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" }),
    });
    expect(classifyError(refused).errorClass).toBe("network");
    expect(classifyError(new Error("page.goto: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:1/")).errorClass).toBe(
      "network",
    );
    expect(classifyError(new Error("page.goto: net::ERR_CONNECTION_RESET")).errorClass).toBe("network");
    expect(
      classifyError(Object.assign(new Error("Timeout 30000ms exceeded."), { name: "TimeoutError" })).errorClass,
    ).toBe("timeout");
    expect(classifyError(new Error("boom")).errorClass).toBe("internal");
    expect(classifyError("weird").errorClass).toBe("internal");
    const known = new ScrapeError("layout_changed", "x");
    expect(classifyError(known)).toBe(known);
  });

  it("lets an aborted signal win: its ScrapeError reason (cancelled), otherwise timeout", () => {
    const controller = new AbortController();
    controller.abort(new ScrapeError("cancelled", "job cancelled"));
    expect(
      classifyError(new Error("Target page, context or browser has been closed"), controller.signal).errorClass,
    ).toBe("cancelled");
    const plain = new AbortController();
    plain.abort();
    expect(abortError(plain.signal).errorClass).toBe("timeout");
    expect(abortError(plain.signal).transient).toBe(true);
  });

  it("covers the classes of the Prisma enum ScrapeErrorClass", () => {
    expect(SCRAPE_ERROR_CLASSES).toEqual([
      "target_not_found",
      "blocked",
      "rate_limited",
      "layout_changed",
      "timeout",
      "network",
      "invalid_target",
      "cancelled",
      "internal",
    ]);
    expect(new ScrapeError("cancelled", "x").transient).toBe(false);
    expect(new ScrapeError("internal", "x", { transient: true }).transient).toBe(true);
  });
});

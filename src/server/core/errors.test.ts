import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AppError, appCodeOfTrpc, ERROR_MAP, shouldRetry } from "./errors";

describe("AppError", () => {
  it("maps every code to a tRPC code, an HTTP status and a WebSocket close code", () => {
    for (const [code, mapping] of Object.entries(ERROR_MAP)) {
      const error = new AppError(code as keyof typeof ERROR_MAP, "m");
      expect(error.httpStatus).toBe(mapping.http);
      expect(error.trpcCode).toBe(mapping.trpc);
      expect(error.wsCloseCode).toBeGreaterThanOrEqual(1000);
      expect(error.wsCloseCode).toBeLessThan(5000);
    }
    expect(new AppError("NOT_FOUND").httpStatus).toBe(404);
    expect(new AppError("CONFLICT").trpcCode).toBe("CONFLICT");
    expect(new AppError("PAYLOAD_TOO_LARGE").wsCloseCode).toBe(1009);
  });

  it("serialises to the one REST error body", () => {
    expect(new AppError("CONFLICT", "Slug taken", { field: "slug" }).toJSON()).toEqual({
      error: { code: "CONFLICT", message: "Slug taken", details: { field: "slug" } },
    });
  });

  it("gives rows that share a close code or an HTTP status the same retry flag", () => {
    const rows = Object.values(ERROR_MAP);
    for (const row of rows) {
      expect(
        rows.filter((r) => r.ws === row.ws).every((r) => r.retry === row.retry),
        `close ${row.ws}`,
      ).toBe(true);
      expect(
        rows.filter((r) => r.http === row.http).every((r) => r.retry === row.retry),
        `status ${row.http}`,
      ).toBe(true);
    }
  });

  it("maps a tRPC code back to its general class, not to a refusal that shares it", () => {
    expect(appCodeOfTrpc("CONFLICT")).toBe("CONFLICT");
    expect(appCodeOfTrpc("UNAUTHORIZED")).toBe("UNAUTHORIZED");
    expect(appCodeOfTrpc("SERVICE_UNAVAILABLE")).toBe("SERVICE_UNAVAILABLE");
    expect(appCodeOfTrpc("NOPE")).toBeUndefined();
  });

  it("tells a client whether to try again: by code, else by close code or status, else yes", () => {
    expect(shouldRetry({ code: "removed", close: 4403 })).toBe(false);
    expect(shouldRetry({ code: "rate_limited", close: 4429 })).toBe(true);
    expect(shouldRetry({ code: "membership ended", close: 4403 })).toBe(false);
    expect(shouldRetry({ close: 4410 })).toBe(false);
    expect(shouldRetry({ close: 1001 })).toBe(true);
    expect(shouldRetry({ status: 401 })).toBe(false);
    expect(shouldRetry({ code: "peer_banned", status: 403 })).toBe(false);
    expect(shouldRetry({ status: 503 })).toBe(true);
    expect(shouldRetry({ status: 502 })).toBe(true);
    expect(new AppError("invite_expired").retryable).toBe(false);
    expect(new AppError("slow_consumer").wsCloseCode).toBe(4408);
  });
});

describe("docs/architecture.md", () => {
  it("lists every code of ERROR_MAP with its tRPC code, HTTP status, close code and retry flag", () => {
    const doc = readFileSync(path.join(import.meta.dirname, "../../../docs/architecture.md"), "utf8");
    const rows = [...doc.matchAll(/^\| `(\w+)` \| (\w+) \| (\d+) \| (\d+) \| (yes|no) \|$/gm)].map((m) => [
      m[1],
      { trpc: m[2], http: Number(m[3]), ws: Number(m[4]), retry: m[5] === "yes" },
    ]);
    expect(Object.fromEntries(rows)).toEqual(ERROR_MAP);
  });
});

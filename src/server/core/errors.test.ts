import { describe, expect, it } from "vitest";
import { AppError, ERROR_MAP } from "./errors";

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
});

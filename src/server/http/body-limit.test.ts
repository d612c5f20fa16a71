import { describe, expect, it } from "vitest";
import { AppError } from "@/server/core/errors";
import { rejectionOf } from "@/test/rejection";
import { bodyLimitFor, readBoundedBody } from "./body-limit";

describe("bodyLimitFor", () => {
  it("gives small routes their own limit and every other route the maximum", () => {
    expect(bodyLimitFor("/api/auth/callback/credentials", 1 << 20)).toBe(64 * 1024);
    expect(bodyLimitFor("/api/public/stats", 1 << 20)).toBe(16 * 1024);
    expect(bodyLimitFor("/api/my/meshes", 1 << 20)).toBe(1 << 20);
    expect(bodyLimitFor("/api/auth/x", 4096)).toBe(4096);
  });
});

describe("readBoundedBody", () => {
  it("refuses a declared length above the limit without reading a byte", async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({ pull: (c) => void (pulled++, c.enqueue(new Uint8Array(10))) });
    const req = new Request("http://x/", {
      method: "POST",
      body,
      headers: { "content-length": "2048" },
      duplex: "half",
    } as RequestInit);
    expect(await rejectionOf(readBoundedBody(req, 1024), AppError)).toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      message: "body_too_large",
    });
    expect(pulled).toBeLessThanOrEqual(1); // a stream may prefetch its first chunk; nothing is read from it
  });

  it("stops an endless stream just past the limit and cancels it", async () => {
    let sent = 0;
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull: (c) => void ((sent += 1000), c.enqueue(new Uint8Array(1000))),
      cancel: () => void (cancelled = true),
    });
    const req = new Request("http://x/", { method: "POST", body, duplex: "half" } as RequestInit);
    expect(await rejectionOf(readBoundedBody(req, 10_000), AppError)).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    expect(sent).toBeLessThan(20_000);
    expect(cancelled).toBe(true);
  });

  it("returns a body within the limit whole", async () => {
    const req = new Request("http://x/", { method: "POST", body: "x".repeat(1024) });
    expect((await readBoundedBody(req, 1024)).byteLength).toBe(1024);
  });
});

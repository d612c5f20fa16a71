import { describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "./security-headers";

describe("content security policy", () => {
  it("lets pages open a WebSocket to the broker's origin only (the chat page), without its path", () => {
    const policy = contentSecurityPolicy({ nonce: "n", dev: false, brokerUrl: "wss://mesh.example.org/broker" });
    expect(policy).toContain("connect-src 'self' wss://mesh.example.org;");
    expect(contentSecurityPolicy({ nonce: "n", dev: false, brokerUrl: "ws://localhost:4301" })).toContain(
      "connect-src 'self' ws://localhost:4301;",
    );
    expect(contentSecurityPolicy({ nonce: "n", dev: false })).toContain("connect-src 'self';");
    expect(contentSecurityPolicy({ nonce: "n", dev: false, brokerUrl: "https://x" })).toContain("connect-src 'self';");
  });
});

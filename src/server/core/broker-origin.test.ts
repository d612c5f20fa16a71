import { describe, expect, it } from "vitest";
import { parseConfig } from "./config";
import { brokerOrigin, isVouchedBroker, vouchedBrokerOrigins, ZTrustedBrokerUrls } from "./broker-origin";
import { z } from "zod";

describe("broker origins (issue 41, attack 1)", () => {
  it("normalises scheme, host and port, and drops the path", () => {
    expect(brokerOrigin("wss://Mesh.Example.org:443/broker")).toBe("wss://mesh.example.org");
    expect(brokerOrigin("ws://127.0.0.1:4000/")).toBe("ws://127.0.0.1:4000");
    expect(brokerOrigin("ws://[::1]:4000")).toBe("ws://[::1]:4000");
    for (const bad of ["https://mesh.example.org", "ws://user:pw@host", "not a url", ""])
      expect(brokerOrigin(bad)).toBeUndefined();
  });

  it("vouches for the web app's own broker and the listed ones only", () => {
    const vouched = vouchedBrokerOrigins("wss://mesh.example.org/broker", ["wss://eu.mesh.example.org"]);
    expect(vouched).toEqual(["wss://mesh.example.org", "wss://eu.mesh.example.org"]);
    expect(isVouchedBroker("wss://MESH.example.org:443/other", vouched)).toBe(true);
    expect(isVouchedBroker("wss://eu.mesh.example.org/", vouched)).toBe(true);
    // Another scheme, port or host is another broker.
    expect(isVouchedBroker("ws://mesh.example.org/broker", vouched)).toBe(false);
    expect(isVouchedBroker("wss://mesh.example.org:8443/broker", vouched)).toBe(false);
    expect(isVouchedBroker("wss://mesh.example.org.evil.test/broker", vouched)).toBe(false);
    expect(isVouchedBroker("wss://evil.test", [])).toBe(false);
  });

  it("reads TRUSTED_BROKER_URLS as origins and refuses anything else, naming the variable", () => {
    const schema = z.object({ TRUSTED_BROKER_URLS: ZTrustedBrokerUrls });
    expect(parseConfig(schema, {}).TRUSTED_BROKER_URLS).toEqual([]);
    expect(parseConfig(schema, { TRUSTED_BROKER_URLS: " wss://a.example/broker , ws://b.example:4000," })).toEqual({
      TRUSTED_BROKER_URLS: ["wss://a.example", "ws://b.example:4000"],
    });
    expect(() => parseConfig(schema, { TRUSTED_BROKER_URLS: "https://a.example" })).toThrow(/TRUSTED_BROKER_URLS/);
  });
});

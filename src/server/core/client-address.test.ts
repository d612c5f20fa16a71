import { describe, expect, it } from "vitest";
import { clientAddress, clientAddressOf, ZTrustProxy } from "./client-address";

const trust = (value: string) => ZTrustProxy.parse(value);

describe("clientAddressOf", () => {
  it("believes the socket alone without TRUST_PROXY, whatever the client claims", () => {
    expect(clientAddressOf("127.0.0.1", "198.51.100.7", trust(""))).toBe("127.0.0.1");
    expect(clientAddressOf("::ffff:127.0.0.1", "198.51.100.7, 203.0.113.9", trust("0"))).toBe("127.0.0.1");
    expect(clientAddressOf(undefined, null, trust(""))).toBe("unknown");
  });

  it("with a hop count, takes the hop that many proxies in front saw, never a hop the client wrote", () => {
    // One proxy: it appended the address it saw; anything before it is the client's own claim.
    expect(clientAddressOf("127.0.0.1", "6.6.6.6, 198.51.100.7", trust("1"))).toBe("198.51.100.7");
    expect(clientAddressOf("127.0.0.1", "6.6.6.6, 198.51.100.7, 10.0.0.2", trust("2"))).toBe("198.51.100.7");
    // Fewer hops than proxies: the farthest there is.
    expect(clientAddressOf("127.0.0.1", "198.51.100.7", trust("3"))).toBe("198.51.100.7");
    expect(clientAddressOf("127.0.0.1", "", trust("1"))).toBe("127.0.0.1");
  });

  it("with proxy addresses, skips trusted proxies from the nearest outwards", () => {
    const proxies = trust("127.0.0.1, 10.0.0.0/8");
    expect(clientAddressOf("127.0.0.1", "6.6.6.6, 198.51.100.7, 10.1.2.3", proxies)).toBe("198.51.100.7");
    // A request that did not come through a trusted proxy: its header is not believed at all.
    expect(clientAddressOf("192.0.2.50", "198.51.100.7", proxies)).toBe("192.0.2.50");
    // Every hop a proxy: the farthest one.
    expect(clientAddressOf("127.0.0.1", "10.0.0.9", proxies)).toBe("10.0.0.9");
  });

  it("refuses a TRUST_PROXY that is neither a count nor addresses", () => {
    expect(ZTrustProxy.safeParse("proxy.example").success).toBe(false);
    expect(ZTrustProxy.safeParse("10.0.0.0/x").success).toBe(false);
  });

  it("reads only the header the web server sets, never X-Forwarded-For", () => {
    expect(clientAddress(new Headers({ "x-client-address": "198.51.100.7", "x-forwarded-for": "6.6.6.6" }))).toBe(
      "198.51.100.7",
    );
    expect(clientAddress(new Headers({ "x-forwarded-for": "6.6.6.6" }))).toBe("unknown");
  });
});

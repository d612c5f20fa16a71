import { describe, expect, it } from "vitest";
import { classifyAddress, isLiteralPrivateHost, isPrivateAddress, parseV6 } from "./address";

// Classification only: nothing here opens a connection to any of these addresses.

describe("classifyAddress", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "cgnat"],
    ["169.254.169.254", "link_local"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "reserved"],
    ["192.0.2.10", "reserved"],
    ["198.18.0.1", "reserved"],
    ["8.8.8.8", "public"],
    ["172.32.0.1", "public"],
    ["100.128.0.1", "public"],
  ])("IPv4 %s is %s", (address, cls) => {
    expect(classifyAddress(address)).toBe(cls);
  });

  it.each([
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "link_local"],
    ["fe80::1%eth0", "link_local"],
    ["fc00::1", "unique_local"],
    ["fd12:3456::1", "unique_local"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "reserved"],
    ["fec0::1", "private"],
    ["2606:4700:4700::1111", "public"],
  ])("IPv6 %s is %s", (address, cls) => {
    expect(classifyAddress(address)).toBe(cls);
  });

  it.each([
    // IPv4-mapped, dotted and hex forms
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:a9fe:a9fe", "link_local"],
    ["::ffff:8.8.8.8", "public"],
    // IPv4-translated (SIIT)
    ["::ffff:0:127.0.0.1", "loopback"],
    // IPv4-compatible (deprecated) and the rest of ::/96
    ["::127.0.0.1", "reserved"],
    ["::8.8.8.8", "reserved"],
    // NAT64 well-known prefix carries the IPv4 address; local-use NAT64 is private
    ["64:ff9b::127.0.0.1", "loopback"],
    ["64:ff9b::a00:1", "private"],
    ["64:ff9b::808:808", "public"],
    ["64:ff9b:1::1", "private"],
    // 6to4
    ["2002:7f00:1::1", "loopback"],
    ["2002:c0a8:101::1", "private"],
    ["2002:808:808::1", "public"],
    // Teredo: server 8.8.8.8, client 127.0.0.1 (inverted in the last 32 bits)
    ["2001:0:808:808::80ff:fffe", "loopback"],
    ["2001:0:a00:1::1", "private"],
  ])("embedded IPv4 in %s is judged as %s", (address, cls) => {
    expect(classifyAddress(address)).toBe(cls);
  });

  it("refuses what is not an address", () => {
    for (const text of ["localhost", "", "1.2.3", "256.1.1.1", "::g", "example.com", "[::1"]) {
      expect(classifyAddress(text)).toBe("invalid");
      expect(isPrivateAddress(text)).toBe(true);
    }
  });

  it("accepts bracketed IPv6 as URLs write it", () => {
    expect(classifyAddress("[::1]")).toBe("loopback");
  });
});

describe("parseV6", () => {
  it("expands :: and a trailing dotted quad", () => {
    expect([...(parseV6("::ffff:1.2.3.4") ?? [])]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 1, 2, 3, 4]);
    expect([...(parseV6("2001:db8::1") ?? [])]).toEqual([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect([...(parseV6("1:2:3:4:5:6:7:8") ?? [])]).toEqual([0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8]);
  });
});

describe("isLiteralPrivateHost", () => {
  it("refuses localhost and literal non-public addresses without a lookup, and leaves names to the request", () => {
    for (const url of [
      "http://localhost:3000/x",
      "http://api.localhost/x",
      "http://[::1]/x",
      "http://127.0.0.1/x",
      "http://[::ffff:7f00:1]/x",
      "http://10.0.0.1/x",
    ]) {
      expect(isLiteralPrivateHost(new URL(url)), url).toBe(true);
    }
    for (const url of ["https://hooks.example.com/x", "http://8.8.8.8/x", "http://[2606:4700:4700::1111]/x"]) {
      expect(isLiteralPrivateHost(new URL(url)), url).toBe(false);
    }
  });
});

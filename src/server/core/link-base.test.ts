import { describe, expect, it } from "vitest";
import { linkBaseFor } from "./link-base";

// Links shown to a person (join links, their QR codes, mailed invites) follow the address they opened
// the app at, but only when it is one of the app's own: a Host or X-Forwarded-Host an attacker writes
// must never end up in a link someone else follows (docs/invites.md, "Which address links use").

const PUBLIC = "https://mesh.example.com";
const configured = { publicBaseUrl: PUBLIC, authUrl: undefined };
const headers = (h: Record<string, string>) => new Headers(h);

describe("linkBaseFor: injected hosts", () => {
  it.each([
    ["another host", { host: "evil.example" }],
    ["another host behind a forwarded header", { host: "mesh.example.com", "x-forwarded-host": "evil.example" }],
    ["the public host as a subdomain of another", { host: "mesh.example.com.evil.example" }],
    ["user info before another host", { host: "mesh.example.com@evil.example" }],
    ["a path after the host", { host: "evil.example/mesh.example.com" }],
    ["the public host on another port", { host: "mesh.example.com:8443" }],
    ["a loopback name when the public address is not loopback", { host: "localhost:3000" }],
    [
      "a list of forwarded hosts starting with another",
      { host: "mesh.example.com", "x-forwarded-host": "evil.example, mesh.example.com" },
    ],
    ["an empty host", { host: "" }],
  ])("ignores %s", (_, h) => {
    expect(linkBaseFor(headers(h), configured)).toBe(PUBLIC);
  });

  it("never takes the scheme from the request", () => {
    expect(linkBaseFor(headers({ host: "mesh.example.com", "x-forwarded-proto": "http" }), configured)).toBe(PUBLIC);
  });

  it("answers PUBLIC_BASE_URL without a request (services, the worker, tests)", () => {
    expect(linkBaseFor(new Headers(), configured)).toBe(PUBLIC);
  });
});

describe("linkBaseFor: the app's own addresses", () => {
  const local = { publicBaseUrl: "http://localhost:3000", authUrl: undefined };

  it.each(["127.0.0.1:3000", "[::1]:3000", "LOCALHOST:3000"])(
    "follows the loopback name %s the app was opened at",
    (host) => {
      expect(linkBaseFor(headers({ host }), local)).toBe(`http://${host.toLowerCase()}`);
    },
  );

  it("keeps a loopback public address for another loopback port", () => {
    expect(linkBaseFor(headers({ host: "127.0.0.1:4000" }), local)).toBe("http://localhost:3000");
  });

  it("follows AUTH_URL's host when the app was opened there", () => {
    const two = { publicBaseUrl: PUBLIC, authUrl: "https://login.example.com/auth" };
    expect(linkBaseFor(headers({ host: "login.example.com" }), two)).toBe("https://login.example.com");
    expect(linkBaseFor(headers({ host: "mesh.example.com" }), two)).toBe(PUBLIC);
  });

  it("follows the forwarded host a trusted proxy set (the web server drops it otherwise)", () => {
    const two = { publicBaseUrl: PUBLIC, authUrl: "https://login.example.com" };
    expect(linkBaseFor(headers({ host: "10.0.0.5:3000", "x-forwarded-host": "login.example.com" }), two)).toBe(
      "https://login.example.com",
    );
  });

  it("keeps a path prefix of PUBLIC_BASE_URL out of the origin, as the links always did", () => {
    expect(
      linkBaseFor(headers({ host: "mesh.example.com" }), { publicBaseUrl: `${PUBLIC}/app/`, authUrl: undefined }),
    ).toBe(`${PUBLIC}/app/`);
  });
});

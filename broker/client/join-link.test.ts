import { describe, expect, it } from "vitest";
import {
  brokerHttpUrl,
  brokerWsUrl,
  JoinLinkError,
  readJoinLink,
  shortJoinLinkOf,
  tokenFromJoinLink,
} from "./join-link";
import { localInvite } from "./test-invite";

const { token, payload } = localInvite();

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof JoinLinkError) return error.code;
    throw error;
  }
  return undefined;
}

describe("join links", () => {
  it("takes the token from the path of every accepted form", () => {
    const forms = [
      `ic://join/${token}`,
      `IC://join/${token}/`,
      `https://mesh.example.test/join/${token}`,
      `https://mesh.example.test/join/${token}/?utm=x#top`,
      `https://mesh.example.test/en/join/${token}`,
      `https://mesh.example.test/pt-BR/join/${token}`,
      `http://localhost:3000/de/join/${token}`,
      `  ${token}\n`,
    ];
    for (const link of forms) expect(tokenFromJoinLink(link), link).toBe(token);
  });

  it("refuses links of another shape with link_malformed", () => {
    const bad = [
      "",
      "   ",
      `ic://invite/${token}`,
      `ic://join/`,
      `ic://join/${token}/extra`,
      `https://mesh.example.test/${token}`,
      `https://mesh.example.test/join/`,
      `https://mesh.example.test/dashboard/join/${token}`,
      `https://mesh.example.test/en/join/${token}/more`,
      `https://mesh.example.test/join?token=${token}`,
      `ftp://mesh.example.test/join/${token}`,
      "https://",
      "not a link",
      `https://mesh.example.test/join/%E0%A4%A`,
    ];
    for (const link of bad)
      expect(
        codeOf(() => tokenFromJoinLink(link)),
        link,
      ).toBe("link_malformed");
  });

  it("decodes the invite of a link with the shared codec", () => {
    const { invite } = readJoinLink(`https://mesh.example.test/en/join/${token}`);
    expect(invite).toEqual(payload);
  });

  it("refuses a token that is not an invite, and an altered invite, before contacting any broker", () => {
    expect(codeOf(() => readJoinLink("ic://join/bm90LWFuLWludml0ZQ"))).toBe("invite_malformed");
    const json = JSON.parse(Buffer.from(token, "base64url").toString()) as Record<string, string>;
    json.broker_url = "wss://evil.example.test";
    const altered = Buffer.from(JSON.stringify(json)).toString("base64url");
    expect(codeOf(() => readJoinLink(`ic://join/${altered}`))).toBe("invite_bad_signature");
  });

  it("leaves expiry to the broker (a wrong local clock must not decide)", () => {
    const expired = localInvite({ expiresInMs: -120_000 });
    expect(readJoinLink(`ic://join/${expired.token}`).invite.mesh_id).toBe(expired.payload.mesh_id);
  });

  it("recognises short links (the code in the join path) and their web app, and nothing else", () => {
    const code = "abcdefghijklmn23";
    expect(shortJoinLinkOf(`https://mesh.example.test/join/${code}`)).toEqual({
      webOrigin: "https://mesh.example.test",
      code,
    });
    expect(shortJoinLinkOf(`  http://localhost:3000/de/join/${code.toUpperCase()}/?x=1\n`)).toEqual({
      webOrigin: "http://localhost:3000",
      code,
    });
    for (const link of [
      `ic://join/${code}`,
      `https://mesh.example.test/join/${token}`,
      `https://mesh.example.test/j/${code}`,
      `https://mesh.example.test/join/${code}x`,
      code,
      "not a link",
    ]) {
      expect(shortJoinLinkOf(link), link).toBeUndefined();
    }
    expect(codeOf(() => shortJoinLinkOf(`https://user:pw@mesh.example.test/join/${code}`))).toBe("link_malformed");
    // A code without its link names no web app to ask.
    expect(codeOf(() => tokenFromJoinLink(code))).toBe("link_malformed");
  });

  it("derives the broker's HTTP and WebSocket addresses from broker_url", () => {
    expect(brokerHttpUrl("wss://broker.example.test", "/join")).toBe("https://broker.example.test/join");
    expect(brokerHttpUrl("ws://127.0.0.1:4000/", "/join")).toBe("http://127.0.0.1:4000/join");
    expect(brokerHttpUrl("wss://example.test/mesh-broker/?x=1", "/hook/set-status")).toBe(
      "https://example.test/mesh-broker/hook/set-status",
    );
    expect(brokerWsUrl("wss://example.test:8443", "/ws")).toBe("wss://example.test:8443/ws");
    expect(() => brokerHttpUrl("https://example.test", "/join")).toThrow(TypeError);
  });
});

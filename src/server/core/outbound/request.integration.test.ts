import type http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { startProbe, type Probe } from "@/test/probe";
import { rejectionOf } from "@/test/rejection";
import { OutboundError, outboundRequest, type HostLookup } from "./request";

// The outbound guard against real servers on 127.0.0.1 only. Host names that "resolve" elsewhere are
// given by an injected resolver, so no test asks a real DNS server or reaches another address.

const servers: Probe[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function probe(handler?: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Probe> {
  const p = await startProbe(handler);
  servers.push(p);
  return p;
}

const base = { deadlineMs: 2_000, maxResponseBytes: 1024, overflow: "error" as const };

describe("outboundRequest", () => {
  it("refuses a loopback literal without connecting, unless private destinations are allowed", async () => {
    const p = await probe();
    const refused = await rejectionOf(
      outboundRequest(new URL(`${p.url}/x`), { ...base, allowPrivate: false }),
      OutboundError,
    );
    expect(refused).toMatchObject({ code: "refused", detail: "loopback" });
    expect(p.connections).toBe(0);
    const ok = await outboundRequest(new URL(`${p.url}/x`), { ...base, allowPrivate: true });
    expect(ok).toMatchObject({ status: 200, truncated: false });
    expect(ok.body.toString()).toBe("ok");
  });

  it("refuses a name that resolves to a private address (every address is checked) without connecting", async () => {
    const p = await probe();
    const lookups: string[] = [];
    const lookup: HostLookup = async (host) => {
      lookups.push(host);
      return [
        { address: "8.8.8.8", family: 4 },
        { address: "127.0.0.1", family: 4 },
      ];
    };
    const refused = await rejectionOf(
      outboundRequest(new URL(`http://platform.test:${p.port}/x`), { ...base, allowPrivate: false, lookup }),
      OutboundError,
    );
    expect(refused).toMatchObject({ code: "refused", detail: "loopback" });
    expect(lookups).toEqual(["platform.test"]);
    expect(p.connections).toBe(0);
  });

  it("connects to the address it checked: the name is resolved once and the connection is pinned to it", async () => {
    const p = await probe();
    let calls = 0;
    // A rebinding resolver: the first answer is the allowed one, any later answer would point elsewhere.
    const lookup: HostLookup = async () =>
      calls++ === 0 ? [{ address: "127.0.0.1", family: 4 }] : [{ address: "127.0.0.2", family: 4 }];
    const res = await outboundRequest(new URL(`http://platform.test:${p.port}/pinned`), {
      ...base,
      allowPrivate: true,
      lookup,
    });
    expect(res.status).toBe(200);
    expect(calls).toBe(1);
    expect(p.requests).toEqual([{ method: "GET", host: `platform.test:${p.port}`, url: "/pinned" }]);
  });

  it("cuts an answer dripped one byte at a time at its deadline, whatever the receiver sends", async () => {
    const p = await probe((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const timer = setInterval(() => res.write("."), 100);
      res.on("close", () => clearInterval(timer));
    });
    const started = Date.now();
    const timedOut = await rejectionOf(
      outboundRequest(new URL(`${p.url}/drip`), { ...base, deadlineMs: 600, allowPrivate: true }),
      OutboundError,
    );
    const took = Date.now() - started;
    expect(timedOut.code).toBe("timeout");
    expect(took).toBeGreaterThanOrEqual(590);
    expect(took).toBeLessThan(2_000);
  });

  it("truncates a large answer (counted as answered) or refuses it, as asked", async () => {
    const p = await probe((_req, res) => res.end("x".repeat(5_000)));
    const cut = await outboundRequest(new URL(p.url), { ...base, overflow: "truncate", allowPrivate: true });
    expect(cut).toMatchObject({ status: 200, truncated: true });
    expect(cut.body.length).toBe(1024);
    expect(
      await rejectionOf(outboundRequest(new URL(p.url), { ...base, allowPrivate: true }), OutboundError),
    ).toMatchObject({ code: "too_large" });
  });

  it("does not follow redirects", async () => {
    const target = await probe();
    const p = await probe((_req, res) => res.writeHead(302, { location: `${target.url}/elsewhere` }).end());
    const res = await outboundRequest(new URL(p.url), { ...base, allowPrivate: true });
    expect(res.status).toBe(302);
    expect(target.connections).toBe(0);
  });

  it("tells a refused connection and an aborted request apart", async () => {
    const p = await probe();
    const closed = p.url;
    await p.close();
    expect(
      await rejectionOf(outboundRequest(new URL(closed), { ...base, allowPrivate: true }), OutboundError),
    ).toMatchObject({ code: "network", detail: "ECONNREFUSED" });
    const live = await probe((_req, _res) => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect(
      await rejectionOf(
        outboundRequest(new URL(live.url), { ...base, allowPrivate: true, signal: controller.signal }),
        OutboundError,
      ),
    ).toMatchObject({ code: "aborted" });
  });
});

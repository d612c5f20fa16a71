// A request target the URL parser refuses ("http://[", absolute form) is a client's mistake: the broker
// answers it 400 on every route and upgrade path, and keeps serving (it once threw in a listener).
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brokerProcess, type BrokerProcess } from "./test-support";

let broker: BrokerProcess;
beforeAll(async () => {
  broker = await brokerProcess("target");
});
afterAll(async () => {
  broker.child.kill("SIGTERM");
  await broker.exited;
});

/** Writes a raw request and reads the answer until the broker closes the connection. */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(request));
    let text = "";
    socket.setTimeout(5_000, () => socket.destroy(new Error("no answer")));
    socket.on("data", (d) => (text += String(d)));
    socket.on("error", reject);
    socket.on("close", () => resolve(text));
  });
}

describe("request targets the URL parser refuses", () => {
  it("answers a plain request and a WebSocket upgrade with 400, and the broker stays up", async () => {
    const plain = await raw(broker.port, "GET http://[ HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n");
    expect(plain).toMatch(/^HTTP\/1\.1 400 /);
    const upgrade = await raw(
      broker.port,
      "GET http://[ HTTP/1.1\r\nhost: x\r\nconnection: Upgrade\r\nupgrade: websocket\r\nsec-websocket-version: 13\r\nsec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
    );
    expect(upgrade).toMatch(/^HTTP\/1\.1 400 /);
    expect(broker.child.exitCode).toBeNull();
    expect((await fetch(`${broker.http}/health`)).status).toBe(200);
  });
});

// The baseline of bench/broker.ts: a bare `ws` relay with the same frames and no database. It answers
// `send` with `sent` and forwards the message to the target's socket, nothing else.
import http from "node:http";
import { randomUUID } from "node:crypto";
import { WebSocketServer, type WebSocket } from "ws";

const port = Number(process.env.RELAY_PORT ?? 4999);
const sockets = new Map<string, WebSocket>();
const server = http.createServer((_req, res) => res.end("relay"));
const wss = new WebSocketServer({ server, maxPayload: 65_536 });
wss.on("connection", (ws, req) => {
  const member = new URL(req.url ?? "/", "http://relay").searchParams.get("member") ?? randomUUID();
  sockets.set(member, ws);
  ws.send(JSON.stringify({ v: 1, type: "welcome", memberId: member, queued: 0 }));
  ws.on("message", (data) => {
    const frame = JSON.parse(String(data)) as {
      type: string;
      id: string;
      to: { memberId: string };
      ciphertext: string;
    };
    if (frame.type !== "send") return;
    const messageId = randomUUID();
    ws.send(JSON.stringify({ v: 1, type: "sent", id: frame.id, messageId, recipients: 1 }));
    sockets.get(frame.to.memberId)?.send(
      JSON.stringify({
        v: 1,
        type: "message",
        messageId,
        from: member,
        to: frame.to,
        ciphertext: frame.ciphertext,
        attempt: 1,
      }),
    );
  });
  ws.on("close", () => sockets.delete(member));
});
server.listen(port, "127.0.0.1", () => process.stdout.write(`relay listening ${port}\n`));
process.on("SIGTERM", () => process.exit(0));

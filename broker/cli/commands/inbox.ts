import { MeshClient, type ReceivedMessage } from "../../client";
import { Inbox } from "../../client/inbox";
import {
  CliFailure,
  EXIT,
  MESH_OPTIONS,
  parseCommandArgs,
  printable,
  storeOf,
  timeoutOf,
  UsageError,
  type CliIo,
} from "../io";
import { historyOf, keepHistory } from "../local-history";
import { asFailure, selectMesh } from "../session";
import { formatMessage } from "./watch";

/**
 * `mesh inbox`: the unread messages, printed once, without watching: those a `mesh mcp` session kept
 * in the local inbox, then those queued at the broker (the welcome says how many), which are acked as
 * they are printed. Ends when all are read (or at --timeout).
 */
export async function inboxCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, MESH_OPTIONS);
  if (positionals.length > 0) throw new UsageError("no arguments expected");
  const config = selectMesh(io, values.mesh);
  const store = storeOf(io);
  const json = values.json === true;
  const print = (m: ReceivedMessage) =>
    io.out(
      json ? JSON.stringify({ type: "message", ...m }) : formatMessage(m, printable(m.fromName ?? m.from.slice(0, 8))),
    );
  const local = new Inbox(store.home, config.meshId).take(Number.MAX_SAFE_INTEGER);
  for (const m of local) print(m);

  const client = new MeshClient(config, { epochKeyStore: store.epochKeyStore(config.meshId), senderGate: true });
  const history = historyOf(io, config);
  keepHistory(client, history, (line) => io.err(`warning: ${line}`));
  // Printed means read: their senders get read receipts (sent before the connection closes).
  const markRead = (messages: ReceivedMessage[]) => {
    client.markRead(messages.map((m) => ({ from: m.from, messageId: m.messageId })));
    try {
      history.recordRead(messages.map((m) => m.messageId));
    } catch {
      // the history misses it; the receipt still goes
    }
  };
  markRead(local.filter((m) => !m.shownAt)); // a channel event was shown: its receipt went then
  let expected = Number.POSITIVE_INFINITY;
  let read = 0;
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  let printed = 0;
  client.on("message", (m) => {
    print(m);
    printed += 1;
    markRead([m]);
  });
  // Every frame announced counts, not only the texts: receipts, keys and dropped ones are queued too.
  client.on("handled", () => {
    if (++read >= expected) finish();
  });
  client.on("connected", (w) => {
    expected = w.queued ?? 0;
    if (read >= expected) finish();
  });
  const fatal = new Promise<never>((_, reject) => client.once("fatal", (e) => reject(asFailure(e))));
  fatal.catch(() => undefined);
  const timeoutMs = timeoutOf(values.timeout);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new CliFailure(
            `read ${read} message(s); no more from the broker at ${config.brokerUrl} within ${timeoutMs / 1000} s`,
            "TIMEOUT",
          ),
        ),
      timeoutMs,
    );
  });
  try {
    await Promise.race([client.connect().then(() => done), fatal, deadline, io.interrupted]);
  } catch (error) {
    throw error instanceof CliFailure ? error : asFailure(error);
  } finally {
    clearTimeout(timer);
    await client.close();
  }
  if (!json && local.length + printed === 0) io.err("no unread messages");
  return EXIT.ok;
}

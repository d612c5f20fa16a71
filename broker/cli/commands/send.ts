import { MESSAGE_PRIORITIES, type TMessagePriority } from "../../protocol/frames";
import { EXIT, MESH_OPTIONS, parseCommandArgs, timeoutOf, UsageError, type CliIo } from "../io";
import { resolvePeers, selectMesh, withClient } from "../session";

/** `mesh send [--to <peer>]... <text>`: encrypt and send one message; waits for the broker's `sent`. */
export async function sendCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    ...MESH_OPTIONS,
    to: { type: "string", multiple: true },
    priority: { type: "string" },
  });
  if (positionals.length === 0) throw new UsageError("give the text to send");
  const priority = values.priority ?? "normal";
  if (!(MESSAGE_PRIORITIES as readonly string[]).includes(priority))
    throw new UsageError(`--priority is one of ${MESSAGE_PRIORITIES.join(", ")}`);
  const text =
    positionals.length === 1 && positionals[0] === "-"
      ? (await io.readStdin()).replace(/\n$/, "")
      : positionals.join(" ");
  if (text === "") throw new UsageError("the message is empty");
  const timeoutMs = timeoutOf(values.timeout);
  const config = selectMesh(io, values.mesh);

  const receipt = await withClient(io, config, timeoutMs, async (client) => {
    const to = values.to?.length ? resolvePeers(values.to, await client.peers(), config.memberId) : undefined;
    return client.send(text, { to, priority: priority as TMessagePriority });
  });
  if (values.json) io.out(JSON.stringify(receipt));
  else
    io.out(
      `Sent to ${receipt.recipients} recipient${receipt.recipients === 1 ? "" : "s"} (message ${receipt.messageId}).`,
    );
  return EXIT.ok;
}

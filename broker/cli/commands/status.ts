import { ZStatus, ZStatusText } from "../../protocol/frames";
import { EXIT, MESH_OPTIONS, parseCommandArgs, timeoutOf, UsageError, type CliIo } from "../io";
import { selectMesh, withClient } from "../session";

/** Checks a status and its text as the broker will (frames.ts), so mistakes are usage errors here. */
export function checkStatus(positionals: string[], text: string | undefined): { status: string; text: string | null } {
  if (positionals.length !== 1 || !positionals[0]) throw new UsageError("give exactly one status, e.g. working");
  if (!ZStatus.safeParse(positionals[0]).success)
    throw new UsageError("a status is 1 to 32 characters a-z, 0-9, _ or - (starting with a letter or digit)");
  if (text !== undefined && !ZStatusText.safeParse(text).success)
    throw new UsageError("--text is at most 200 characters");
  return { status: positionals[0], text: text ?? null };
}

/** `mesh status <status> [--text …]`: set this peer's status over a connection. */
export async function statusCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { ...MESH_OPTIONS, text: { type: "string" } });
  const wanted = checkStatus(positionals, values.text);
  const config = selectMesh(io, values.mesh);
  const answer = await withClient(io, config, timeoutOf(values.timeout), (client) =>
    client.setStatus(wanted.status, wanted.text),
  );
  if (values.json)
    io.out(JSON.stringify({ memberId: answer.memberId, status: answer.status, text: answer.text, at: answer.at }));
  else io.out(`Status set to ${answer.status}${answer.text ? ` (${answer.text})` : ""} in mesh ${config.meshSlug}.`);
  return EXIT.ok;
}

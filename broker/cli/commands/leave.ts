import { HookError, leaveViaBroker } from "../../client";
import { CliFailure, EXIT, parseCommandArgs, storeOf, type CliIo } from "../io";
import { selectMesh } from "../session";

/** `mesh leave [--mesh <slug>]`: this machine's membership ends; its keys for the mesh are deleted. */
export async function leaveCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(args, { mesh: { type: "string" }, json: { type: "boolean" } });
  const config = selectMesh(io, values.mesh);
  try {
    await leaveViaBroker(config, storeOf(io));
  } catch (error) {
    if (!(error instanceof HookError)) throw error;
    throw new CliFailure(
      error.code === "UNREACHABLE" ? error.message : `leave refused: ${error.message} (${error.code})`,
      error.code,
    );
  }
  if (values.json) io.out(JSON.stringify({ meshId: config.meshId, meshSlug: config.meshSlug, left: true }));
  else io.out(`Left mesh ${config.meshSlug}; its keys are deleted from this machine.`);
  return EXIT.ok;
}

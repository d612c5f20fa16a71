import { AccountError, joinWithLink, JoinLinkError, JoinRefusedError } from "../../client";
import { CliFailure, EXIT, parseCommandArgs, storeOf, UsageError, type CliIo } from "../io";

/** `mesh join <link> [--name <n>]`: join a mesh and store this peer's keys. */
export async function joinCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    name: { type: "string" },
    json: { type: "boolean" },
    anonymous: { type: "boolean" },
    group: { type: "string", multiple: true },
  });
  if (positionals.length !== 1 || !positionals[0]) throw new UsageError("give exactly one link");
  const store = storeOf(io);
  // After `mesh login` the member is the user's (docs/cli.md); --anonymous joins without the account.
  const account = values.anonymous ? undefined : store.account();
  let outcome;
  try {
    outcome = await joinWithLink(positionals[0], {
      displayName: values.name,
      store,
      ...(account ? { account } : {}),
      ...(values.group?.length ? { groups: values.group } : {}),
    });
  } catch (error) {
    if (error instanceof JoinLinkError) throw new CliFailure(`cannot join: ${error.message}`, error.code);
    // Asking the account's web app which brokers it vouches for failed: nothing was sent to the broker.
    if (error instanceof AccountError) {
      if (error.code === "device_token_invalid")
        throw new CliFailure(
          "join refused: this machine's sign-in was revoked; run mesh login again, or join with --anonymous",
          error.code,
        );
      throw new CliFailure(
        `cannot join with your account: ${error.message}; join with --anonymous to join without it`,
        error.code,
      );
    }
    if (error instanceof JoinRefusedError) {
      if (error.code === "UNREACHABLE") throw new CliFailure(error.message, error.code);
      if (error.code === "broker_not_vouched")
        throw new CliFailure(
          `join refused: ${error.message}. If you trust this link, join with --anonymous: the member is then not linked to your account`,
          error.code,
        );
      if (error.code === "account_token_invalid")
        throw new CliFailure(
          "join refused: this machine's login expired or was ended; run mesh login again, or join with --anonymous",
          error.code,
        );
      const where = error.status ? `, HTTP ${error.status}` : "";
      const retry = error.retryAfterSeconds ? `; try again in ${error.retryAfterSeconds} s` : "";
      throw new CliFailure(`join refused: ${error.message} (${error.code}${where})${retry}`, error.code);
    }
    throw error;
  }
  const { config, rejoined, file } = outcome;
  if (values.json) {
    io.out(
      JSON.stringify({
        meshId: config.meshId,
        meshSlug: config.meshSlug,
        memberId: config.memberId,
        role: config.role,
        displayName: config.displayName,
        brokerUrl: config.brokerUrl,
        rejoined,
        configFile: file,
        linkedTo: account?.email ?? null,
      }),
    );
  } else {
    io.out(`${rejoined ? "Rejoined" : "Joined"} mesh ${config.meshSlug} as ${config.displayName} (${config.role}).`);
    io.out(`Member id ${config.memberId}; broker ${config.brokerUrl}; keys stored in ${file}.`);
    if (account) io.out(`Linked to your account ${account.name ?? account.email ?? ""} (mesh login).`);
  }
  return EXIT.ok;
}

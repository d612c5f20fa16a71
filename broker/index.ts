import { loadConfigOrExit } from "../src/server/core/config";
import { PROJECT_ROOT } from "../src/server/core/database/ensure";
import { resolveGitSha } from "../src/server/core/git-sha";
import { createLogger } from "../src/server/core/logger";
import { APP_VERSION } from "../src/server/core/version";
import { ZBrokerConfig } from "./config";
import { createBrokerServer } from "./server";

const config = loadConfigOrExit(ZBrokerConfig, "broker");
const log = createLogger("broker");
const broker = createBrokerServer(config, { log, version: APP_VERSION, gitSha: resolveGitSha(PROJECT_ROOT) });

await broker.monitor.start();
broker.server.listen(config.BROKER_PORT, config.BROKER_HOST, () => {
  log.info({ event: "listening", port: config.BROKER_PORT }, "broker listening");
});

let closing = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    log.info({ event: "shutdown", signal }, "broker stopping");
    void broker.close().then(() => process.exit(0));
    setTimeout(() => process.exit(1), 10_000).unref();
  });
}

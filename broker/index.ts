import { loadConfigOrExit } from "../src/server/core/config";
import { PROJECT_ROOT } from "../src/server/core/database/ensure";
import { resolveGitSha } from "../src/server/core/git-sha";
import { onShutdown } from "../src/server/core/lifecycle";
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

onShutdown(log, () => broker.close());

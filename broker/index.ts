import { loadConfigOrExit } from "../src/server/core/config";
import { PROJECT_ROOT } from "../src/server/core/project-root";
import { createDb } from "../src/server/core/db";
import { resolveGitSha } from "../src/server/core/git-sha";
import { onShutdown } from "../src/server/core/lifecycle";
import { createLogger } from "../src/server/core/logger";
import { APP_VERSION } from "../src/server/core/version";
import { ZBrokerConfig } from "./config";
import { createBrokerServer } from "./server";

const config = loadConfigOrExit(ZBrokerConfig, "broker");
const log = createLogger("broker");
const db = createDb(config.DATABASE_URL);
const broker = createBrokerServer(config, { log, db, version: APP_VERSION, gitSha: resolveGitSha(PROJECT_ROOT) });

await broker.start();
// A deep accept queue: after a restart every peer dials at once, and an overflowing backlog answers
// with resets instead of the 503 and Retry-After the connect gate gives (docs/protocol.md).
broker.server.listen({ port: config.BROKER_PORT, host: config.BROKER_HOST, backlog: 4096 }, () => {
  log.info({ event: "listening", port: config.BROKER_PORT, nodeId: broker.nodeId }, "broker listening");
});

onShutdown(log, async () => {
  await broker.close();
  await db.$disconnect();
});

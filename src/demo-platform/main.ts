/** Entry of the demo reviews platform process (`npm run platform`, or started by `npm start`). */
import { loadConfigOrExit } from "../server/core/config";
import { onShutdown } from "../server/core/lifecycle";
import { createLogger } from "../server/core/logger";
import { ZDemoPlatformConfig } from "./config";
import { createDemoPlatform, DEFAULT_SETTINGS } from "./server";

const config = loadConfigOrExit(ZDemoPlatformConfig, "platform");
const log = createLogger("platform");
const platform = createDemoPlatform({
  seed: config.DEMO_PLATFORM_SEED,
  places: config.DEMO_PLATFORM_PLACES,
  anchor: config.DEMO_PLATFORM_ANCHOR,
  adminToken: config.DEMO_PLATFORM_ADMIN_TOKEN,
  log,
  settings: {
    layout: config.DEMO_PLATFORM_LAYOUT,
    latencyMs: config.DEMO_PLATFORM_LATENCY_MS,
    errorRate: config.DEMO_PLATFORM_ERROR_RATE,
    rateLimit: { capacity: config.DEMO_PLATFORM_RATE_CAPACITY, perMinute: config.DEMO_PLATFORM_RATE_PER_MINUTE },
    places: DEFAULT_SETTINGS.places,
  },
});

const url = await platform.listen(config.DEMO_PLATFORM_PORT, config.DEMO_PLATFORM_HOST);
log.info(
  { event: "listening", url, places: platform.dataset.places.length, layout: config.DEMO_PLATFORM_LAYOUT },
  "demo platform listening",
);

onShutdown(log, () => platform.close());

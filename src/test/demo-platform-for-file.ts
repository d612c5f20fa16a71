import { afterAll, beforeAll } from "vitest";
import { createDemoPlatform, type DemoPlatform } from "@/demo-platform/server";
import { closeScrapers, setScraperConfig } from "@/server/scrapers";

/** The demo platform a test file scrapes: eight places (p-0008 is a small one), on a free loopback port. */
export interface DemoForFile {
  platform: DemoPlatform;
  base: string;
}

/**
 * Starts the real demo platform before the file's tests (with scraper timeouts for a loaded machine)
 * and stops it and the shared browser after them. Its fields are set once the file's tests run.
 */
export function demoPlatformForFile(): DemoForFile {
  const demo = {} as DemoForFile;
  beforeAll(async () => {
    setScraperConfig({ SCRAPER_NAVIGATION_TIMEOUT_MS: 15_000, SCRAPER_STEP_TIMEOUT_MS: 8_000 });
    demo.platform = createDemoPlatform({ places: 8 });
    demo.base = await demo.platform.listen(0);
  });
  afterAll(async () => {
    await closeScrapers();
    await demo.platform.close();
  });
  return demo;
}

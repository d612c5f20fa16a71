import { describe, expect, it } from "vitest";
import { backoffMs, verdictOf } from "./callbacks/schedule";
import { isWebhookSecret, signedHeaders } from "./callbacks/signing";
import { routeVersion, type RoutableVersion } from "./routing";

const v = (version: string, variant: string, trafficPercent: number): RoutableVersion => ({
  id: `${version}/${variant}`,
  version,
  variant,
  implementation: "noop",
  trafficPercent,
  config: {},
});

describe("traffic-weighted routing", () => {
  it("keeps 10,000 draws within 2 percentage points of each allocation", () => {
    const active = [v("v1", "default", 10), v("v2", "default", 60), v("v2", "canary", 30), v("v3", "default", 0)];
    const counts = new Map<string, number>();
    for (let i = 0; i < 10_000; i += 1) {
      const picked = routeVersion(active, {});
      counts.set(picked.id, (counts.get(picked.id) ?? 0) + 1);
    }
    for (const a of active) {
      const share = ((counts.get(a.id) ?? 0) / 10_000) * 100;
      expect(Math.abs(share - a.trafficPercent), `${a.id}: ${share}`).toBeLessThanOrEqual(2);
    }
  });

  it("treats shares summing below 100 as relative weights", () => {
    const active = [v("a", "default", 20), v("b", "default", 20)];
    let a = 0;
    for (let i = 0; i < 10_000; i += 1) if (routeVersion(active, {}).version === "a") a += 1;
    expect(Math.abs(a / 100 - 50)).toBeLessThanOrEqual(2);
  });

  it("honours an explicit version, variant, or both; refuses what is not active", () => {
    const active = [v("v1", "default", 100), v("v2", "default", 0), v("v2", "canary", 0)];
    expect(routeVersion(active, { version: "v2", variant: "canary" }).id).toBe("v2/canary");
    expect(routeVersion(active, { variant: "canary" }).id).toBe("v2/canary");
    expect(routeVersion(active, { version: "v2" }).version).toBe("v2");
    expect(() => routeVersion(active, { version: "v9" })).toThrow("unknown_scraper_version");
    expect(() => routeVersion([v("v1", "default", 0)], {})).toThrow("no_routable_scraper");
  });
});

describe("callback rules", () => {
  it("maps receiver answers: 2xx delivers, 410 stops, 408/429/5xx/network retry, other 4xx stop", () => {
    expect([200, 204, 299].map(verdictOf)).toEqual(["delivered", "delivered", "delivered"]);
    expect([408, 429, 500, 503, null].map(verdictOf)).toEqual(["retry", "retry", "retry", "retry", "retry"]);
    expect([410, 400, 404, 301].map(verdictOf)).toEqual(["stop", "stop", "stop", "stop"]);
  });

  it("backs off exponentially with jitter between half and all of the step, capped", () => {
    expect(backoffMs(1, 10_000, 3_600_000, () => 0)).toBe(5_000);
    expect(backoffMs(1, 10_000, 3_600_000, () => 1)).toBe(10_000);
    expect(backoffMs(4, 10_000, 3_600_000, () => 1)).toBe(80_000);
    expect(backoffMs(30, 10_000, 3_600_000, () => 1)).toBe(3_600_000);
  });

  it("signs like the Standard Webhooks reference vector", () => {
    // Vector from the Standard Webhooks specification's reference libraries.
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const body = '{"test": 2432232314}';
    const headers = signedHeaders(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body);
    expect(headers["webhook-signature"]).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    expect(isWebhookSecret(secret)).toBe(true);
    expect(isWebhookSecret("whsec_c2hvcnQ=")).toBe(false);
  });
});

describe("implementation names", () => {
  it("match the scrapers' own list", async () => {
    const { SCRAPER_IMPLEMENTATIONS } = await import("@/server/scrapers");
    const { KNOWN_IMPLEMENTATIONS } = await import("./implementations");
    expect([...KNOWN_IMPLEMENTATIONS].sort()).toEqual([...SCRAPER_IMPLEMENTATIONS].sort());
  });
});

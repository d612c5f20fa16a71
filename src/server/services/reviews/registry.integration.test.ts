import { afterAll, describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/root";
import { createContext } from "@/server/api/trpc";
import { testDb, uid } from "@/test/helpers";
import { PLATFORM } from "./registry-admin";
import { activeVersions, REGISTRY_TTL_MS } from "./registry-cache";

const db = testDb();
afterAll(() => db.$disconnect());
const admin = createCaller(
  createContext({ db, user: { id: uid("admin"), email: "a@example.test", name: null, isAdmin: true } }),
);

describe("scraper registry administration", () => {
  it("registers versions, keeps the active sum at most 100, promotes and deprecates", async () => {
    const platform = uid("plat");
    const a = await admin.scrape.registry.create({
      platform,
      version: "v1",
      implementation: "browser-v1",
      traffic_percent: 70,
    });
    const b = await admin.scrape.registry.create({
      platform,
      version: "v2",
      variant: "canary",
      implementation: "browser-v2",
      traffic_percent: 30,
    });
    await expect(
      admin.scrape.registry.create({ platform, version: "v3", implementation: "http-json", traffic_percent: 1 }),
    ).rejects.toMatchObject({ message: "allocation_exceeds_100" });
    await expect(
      admin.scrape.registry.create({ platform, version: "v1", implementation: "noop" }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(
      admin.scrape.registry.create({ platform, version: "v4", implementation: "nope" }),
    ).rejects.toMatchObject({ message: "unknown_implementation" });
    await expect(admin.scrape.registry.traffic({ id: b.id, traffic_percent: 31 })).rejects.toMatchObject({
      message: "allocation_exceeds_100",
    });
    expect((await admin.scrape.registry.traffic({ id: b.id, traffic_percent: 10 })).traffic_percent).toBe(10);
    expect((await admin.scrape.registry.list({ platform })).allocation_sum).toBe(80);

    const promoted = await admin.scrape.registry.promote({ id: b.id });
    expect(promoted).toMatchObject({ traffic_percent: 100, promoted_at: expect.any(Date) });
    expect((await admin.scrape.registry.get({ id: a.id })).traffic_percent).toBe(0);

    const deprecated = await admin.scrape.registry.deprecate({ id: b.id });
    expect(deprecated).toMatchObject({ deprecated: true, traffic_percent: 0 });
    await expect(admin.scrape.registry.traffic({ id: b.id, traffic_percent: 5 })).rejects.toMatchObject({
      message: "scraper_version_deprecated",
    });
    await expect(admin.scrape.registry.promote({ id: b.id })).rejects.toMatchObject({
      message: "scraper_version_deprecated",
    });
    const listed = await admin.scrape.registry.list({ platform, include_deprecated: "false" });
    expect(listed.items.map((i) => i.version)).toEqual(["v1"]);
    const updated = await admin.scrape.registry.update({ id: a.id, description: "layout 1 only", config: { note: 1 } });
    expect(updated).toMatchObject({ description: "layout 1 only", config: { note: 1 } });
  });

  it("caches the registry for 60 seconds and refreshes it at once after an admin change", async () => {
    await activeVersions(db, PLATFORM);
    // A row written behind the cache's back is not seen within the TTL...
    const hidden = await db.scraperVersion.create({
      data: { platform: PLATFORM, version: uid("hidden"), implementation: "noop" },
    });
    expect((await activeVersions(db, PLATFORM)).some((v) => v.id === hidden.id)).toBe(false);
    // ...but is after the TTL, and at once after a change made through the admin operations.
    expect((await activeVersions(db, PLATFORM, Date.now() + REGISTRY_TTL_MS + 1)).some((v) => v.id === hidden.id)).toBe(
      true,
    );
    const viaAdmin = await admin.scrape.registry.create({ version: uid("v"), implementation: "noop" });
    expect((await activeVersions(db, PLATFORM)).some((v) => v.id === viaAdmin.id)).toBe(true);
  });
});

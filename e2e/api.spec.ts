import { expect, test } from "@playwright/test";

test("REST and OpenAPI on the production server", async ({ request }) => {
  const doc = await request.get("/api/openapi.json");
  expect(doc.status()).toBe(200);
  const json = (await doc.json()) as { openapi: string; paths: Record<string, unknown> };
  expect(json.openapi).toMatch(/^3\./);
  expect(Object.keys(json.paths)).toContain("/public/invite/{token}");

  const first = await request.get("/api/public/stats");
  const second = await request.get("/api/public/stats");
  expect(first.headers()["cache-control"]).toBe("public, s-maxage=60");
  expect(second.headers()["x-cache"]).toBe("HIT");
  expect(Object.keys((await second.json()) as object).sort()).toEqual([
    "lastUpdated",
    "meshesCreated",
    "messagesRouted",
    "peersActive",
  ]);

  const signedOut = await request.get("/api/my/meshes");
  expect(signedOut.status()).toBe(401);
  expect(await signedOut.json()).toMatchObject({ error: { code: "UNAUTHORIZED" } });
});

test("/favicon.ico is served: browsers ask for it on pages of any status, 403 pages included", async ({ request }) => {
  const ico = await request.get("/favicon.ico");
  expect(ico.status()).toBe(200);
  expect(ico.headers()["content-type"]).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
});

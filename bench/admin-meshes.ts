/**
 * Admin meshes list over 100,000 meshes: search and sort, page 1 and page 500 (goal p95 <= 50 ms).
 * Baseline in the same run: the same page without search (an index-only walk).
 *   npx tsx bench/admin-meshes.ts [meshCount]
 */
import { createDb } from "../src/server/core/db";
import { serviceContext } from "../src/server/services/context";
import { adminListMeshes } from "../src/server/services/admin/list-meshes";
import { ZAdminMeshesInput } from "../src/server/services/admin/list-meshes.schema";
import { benchDatabase, fmt, percentile, timeRuns } from "./lib";

const COUNT = Number(process.argv[2] ?? 100_000);
const ready = await benchDatabase("bench_admin_meshes");
const db = createDb(ready.url, { max: 4 });

const have = await db.mesh.count();
if (have < COUNT) {
  console.log(`seeding ${COUNT - have} meshes…`);
  await db.$executeRawUnsafe(`
    INSERT INTO users (id, name, email, updated_at)
    SELECT 'bench-owner-' || g, 'Owner ' || g, 'owner' || g || '@bench.test', now() FROM generate_series(1, 1000) g
    ON CONFLICT DO NOTHING`);
  await db.$executeRawUnsafe(`
    INSERT INTO meshes (id, slug, name, owner_user_id, owner_pubkey, owner_secret_key_enc, root_key_enc, visibility, transport, tier, archived_at, created_at, updated_at)
    SELECT gen_random_uuid(), 'mesh-' || g, (ARRAY['Alpha','Bravo','Charlie','Delta','Echo','Foxtrot','Golf','Hotel'])[1 + g % 8] || ' team ' || g,
           'bench-owner-' || (1 + g % 1000), 'pk', 'x', 'x',
           (ARRAY['private','unlisted','public'])[1 + g % 3]::mesh_visibility, 'relay', 'free',
           CASE WHEN g % 10 = 0 THEN now() ELSE NULL END, now() - (g || ' seconds')::interval, now()
    FROM generate_series(${have + 1}, ${COUNT}) g`);
  await db.$executeRawUnsafe(`
    INSERT INTO members (id, mesh_id, user_id, display_name, role)
    SELECT gen_random_uuid(), id, owner_user_id, 'owner', 'owner' FROM meshes m
    WHERE NOT EXISTS (SELECT 1 FROM members x WHERE x.mesh_id = m.id)`);
  await db.$executeRawUnsafe("ANALYZE");
}

const cases = [
  {
    label: "search 'team 4' sort name, page 1",
    input: { q: "team 4", sort: "name" as const, dir: "asc" as const, page: 1, pageSize: 20 },
  },
  {
    label: "search 'alpha' sort createdAt, page 500",
    input: { q: "alpha", sort: "createdAt" as const, page: 500, pageSize: 20 },
  },
  {
    label: "search 'alpha' sort name, page 1",
    input: { q: "alpha", sort: "name" as const, dir: "asc" as const, page: 1, pageSize: 20 },
  },
  // Worst case, for information: a term in every one of the 100,000 names.
  {
    label: "search 'team' (every row) sort createdAt, page 500",
    input: { q: "team", sort: "createdAt" as const, page: 500, pageSize: 20 },
  },
  {
    label: "filter public sort slug, page 500",
    input: { visibility: "public" as const, sort: "slug" as const, dir: "asc" as const, page: 500, pageSize: 20 },
  },
  { label: "baseline: no search, sort createdAt, page 1", input: { page: 1, pageSize: 20 } },
];
console.log(`admin meshes list over ${await db.mesh.count()} meshes (50 runs each)`);
let baseline = NaN;
const results: { label: string; p50: number; p95: number }[] = [];
for (const c of cases) {
  const runs = await timeRuns(50, () =>
    adminListMeshes(
      serviceContext({ kind: "administrator", userId: "bench" }, { db }),
      ZAdminMeshesInput.parse(c.input),
    ),
  );
  results.push({ label: c.label, p50: percentile(runs, 50), p95: percentile(runs, 95) });
  if (c.label.startsWith("baseline")) baseline = percentile(runs, 95);
}
for (const r of results) {
  console.log(
    `${r.label.padEnd(52)} p50 ${fmt(r.p50).padStart(9)}  p95 ${fmt(r.p95).padStart(9)}  ratio to baseline p95 ${(r.p95 / baseline).toFixed(2)}  ${r.p95 <= 50 ? "goal met" : "GOAL MISSED"}`,
  );
}
await db.$disconnect();
if (ready.embedded?.owned) await ready.embedded.stop();
process.exit(0);

import { afterAll, describe, expect, it } from "vitest";
import { makeMesh, makeUser } from "@/test/mesh-fixtures";
import { testDb, uid } from "@/test/helpers";
import { adminViews } from "@/server/services/admin/view-params";
import { adminCsv } from "./admin-csv";
import { createCaller } from "./root";
import { createContext, type SessionUser } from "./trpc";

const db = testDb();
afterAll(() => db.$disconnect());
const as = (user: SessionUser) => createCaller(createContext({ user, db }));

describe("admin CSV export", () => {
  it("exports every page of the view with its filters and sort, escaped and formula-guarded", async () => {
    const [admin, owner] = [await makeUser(db, { admin: true }), await makeUser(db, { name: '=Owner, "quoted"' })];
    const tag = uid("csv").toLowerCase();
    const names = Array.from({ length: 103 }, (_, i) => `${tag} ${String(i).padStart(3, "0")}`);
    for (const name of names) await makeMesh(db, owner, name);
    const view = adminViews.meshes({ q: tag, sort: "name", dir: "desc", page: "2", pageSize: "20" });
    const out = await adminCsv(as(admin), "meshes", view.input);
    expect(out).toMatchObject({ rows: 103, total: 103 });
    const lines = out.csv.trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "id,slug,name,visibility,transport,tier,archivedAt,createdAt,ownerName,ownerEmail,memberCount",
    );
    expect(lines).toHaveLength(104);
    // Sorted by name descending, all pages (not only page 2 of the screen).
    expect(lines[1]).toContain(`,${tag} 102,`);
    expect(lines[103]).toContain(`,${tag} 000,`);
    expect(lines[1]).toContain(`,"'=Owner, ""quoted""",`);
  });

  it("is refused to a user who is not an administrator", async () => {
    const user = await makeUser(db);
    await expect(adminCsv(as(user), "audit", adminViews.audit({}).input)).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

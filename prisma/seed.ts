import type { Db } from "../src/server/core/db";
import { hashPassword } from "../src/server/core/password";
import { seedScraperVersions } from "./seed-scrapers";
import { seedPipelines } from "./seed-pipelines";

/** Demo accounts for local use (README, "Demo logins"); the admin is admin because of ADMIN_EMAILS. */
export const DEMO_USERS = [
  { email: "admin@example.com", name: "Ada Admin", password: "admin-demo-password" },
  { email: "user@example.com", name: "Uma User", password: "user-demo-password" },
] as const;

/** Inserts the demo data once; running it again adds and changes nothing. */
export async function seed(db: Db, log: (line: string) => void = () => {}): Promise<{ created: number }> {
  let created = 0;
  for (const demo of DEMO_USERS) {
    const existing = await db.user.findUnique({ where: { email: demo.email }, select: { emailVerified: true } });
    if (existing) {
      // Seeded before demo addresses were confirmed: administrators need a confirmed address.
      if (!existing.emailVerified)
        await db.user.update({ where: { email: demo.email }, data: { emailVerified: new Date() } });
      continue;
    }
    // createMany with skipDuplicates keeps two seeding processes from racing into a unique violation.
    const result = await db.user.createMany({
      // Confirmed: example.com receives no mail, and the demo shows no "confirm your address" banner.
      data: [
        {
          email: demo.email,
          name: demo.name,
          passwordHash: await hashPassword(demo.password),
          emailVerified: new Date(),
        },
      ],
      skipDuplicates: true,
    });
    created += result.count;
  }
  const versions = await seedScraperVersions(db);
  if (versions) log(`registered ${versions} demo scraper versions`);
  log(created ? `seeded ${created} demo users` : "demo data already present");
  await seedPipelines(db, log);
  return { created };
}

/**
 * Marks a user's e-mail address as confirmed from the command line, for an operator who runs the
 * product without outgoing mail (SMTP_URL unset), where nobody can follow a confirmation link:
 *   npm run user:confirm -- admin@example.org
 * Administrators (ADMIN_EMAILS) need a confirmed address (docs/security.md, "Accounts").
 */
import { createDb } from "../src/server/core/db";
import { prepare } from "./lib/product";

const email = process.argv[2]?.trim();
if (!email || process.argv.length > 3) {
  process.stderr.write("usage: npm run user:confirm -- <e-mail address>\n");
  process.exit(2);
}
const { database } = await prepare({ dev: false, buildWeb: false, seed: false });
const db = createDb(database.url, { max: 1 });
try {
  const user = await db.user.findFirst({
    where: { email: { equals: email, mode: "insensitive" } },
    select: { id: true, email: true, emailVerified: true },
  });
  if (!user) {
    process.stderr.write(`no account has the address ${email}\n`);
    process.exitCode = 1;
  } else if (user.emailVerified) {
    process.stdout.write(`${user.email} was confirmed already (${user.emailVerified.toISOString()})\n`);
  } else {
    await db.user.update({ where: { id: user.id }, data: { emailVerified: new Date() } });
    process.stdout.write(`${user.email} is confirmed\n`);
  }
} finally {
  await db.$disconnect();
  if (database.embedded?.owned) await database.embedded.stop();
}

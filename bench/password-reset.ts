/**
 * "Forgot password?" for an address with an account and for one without: the time the request takes
 * (what a prober sees), measured alternately in the same run, each the other's baseline. The mail goes
 * to a real SMTP server on loopback, in the background, as in the product. Goal: medians within 20 % of
 * each other (the answer's content and status are the same by construction; tests check that).
 *   npx tsx bench/password-reset.ts [requests]
 */
import { randomBytes } from "node:crypto";
import { createDb } from "../src/server/core/db";
import { serviceContext } from "../src/server/services/context";
import { VISITOR } from "../src/server/services/actor";
import { requestPasswordReset } from "../src/server/services/account/password-reset";
import { registerUser } from "../src/server/services/users/register-user";
import { flushMail, smtpMailer, setMailer } from "../src/server/mail/transport";
import { startLoopbackSmtp } from "../src/test/loopback-smtp";
import { benchDatabase, fmt, percentile } from "./lib";

const N = Number(process.argv[2] ?? 300);
const ready = await benchDatabase("bench_password_reset");
// The web app's settings this path reads, with the limits out of the way (the bench measures the work).
Object.assign(process.env, {
  DATABASE_URL: ready.url,
  AUTH_SECRET: process.env.AUTH_SECRET ?? "bench-only-auth-secret-0123456789abcdef",
  SECRETS_KEYS: process.env.SECRETS_KEYS ?? `kbench:${Buffer.alloc(32, 3).toString("base64")}`,
  MAIL_PER_ADDRESS_PER_HOUR: "10000",
  MAIL_CLIENT_RATE_PER_MINUTE: "100000",
  RATE_LIMIT_SCOPE: `bench-${process.pid}`,
  PASSWORD_SCRYPT_LOG2_N: "12",
});
const db = createDb(ready.url, { max: 4 });
const smtp = await startLoopbackSmtp();
setMailer(smtpMailer(smtp.url, "Review Mesh <no-reply@bench.test>"));
const ctx = serviceContext(VISITOR, { db });

const known = `known-${randomBytes(4).toString("hex")}@bench.test`;
await registerUser(ctx, { name: "Known", email: known, password: "a-long-bench-password" });
// One address each, so both draw on one rate-limit row (a new address would add a row insert of its own).
const unknownAddress = `nobody-${randomBytes(6).toString("hex")}@bench.test`;
const unknown = () => unknownAddress;
const request = async (email: string) => {
  const t0 = performance.now();
  await requestPasswordReset(ctx, { email, locale: "en" }, { client: "bench" });
  const took = performance.now() - t0;
  await flushMail(); // the background work of one request does not land in the next one's time
  return took;
};

for (let i = 0; i < 20; i++) await request(i % 2 ? known : unknown()); // warm-up
const times = { known: [] as number[], unknown: [] as number[] };
for (let i = 0; i < N; i++) {
  // Alternating, each first in every other pair, so a drift of the machine touches both alike.
  if (i % 2 === 0) {
    times.known.push(await request(known));
    times.unknown.push(await request(unknown()));
  } else {
    times.unknown.push(await request(unknown()));
    times.known.push(await request(known));
  }
}
await flushMail();

const p50 = { known: percentile(times.known, 50), unknown: percentile(times.unknown, 50) };
console.log(`password-reset request, ${N} each, alternating:`);
for (const k of ["known", "unknown"] as const) {
  console.log(`  ${k.padEnd(8)} p50 ${fmt(p50[k])}  p95 ${fmt(percentile(times[k], 95))}`);
}
const ratio = p50.known / p50.unknown;
console.log(
  `  known/unknown p50 ratio ${ratio.toFixed(2)} (goal 0.8–1.2: ${ratio >= 0.8 && ratio <= 1.2 ? "met" : "MISSED"})`,
);
console.log(`  mails delivered to the loopback server: ${smtp.received.length}`);
await smtp.close();
await db.$disconnect();
if (ready.embedded?.owned) await ready.embedded.stop();

import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { availableParallelism } from "node:os";
import { z } from "zod";
import { envInt, parseConfig } from "./config";
import { AppError } from "./errors";
import { Semaphore } from "./semaphore";

// Passwords are stored as scrypt hashes, `scrypt$N$r$p$salt$hash` (base64url), at OWASP's current
// recommendation by default: N=2^17, r=8, p=1 (128 MiB and a fraction of a second a hash). The cost
// is stored with each hash; a sign-in with an older, cheaper hash rewrites it at the current cost
// (`needsRehash`). A hash takes 128 MiB, so at most as many run at once as the machine has cores, and
// only a bounded number wait: past that a sign-in or sign-up is refused as too busy, not queued.

const ZPasswordConfig = z.object({
  /** log2 of scrypt's N (17: OWASP's recommendation). Lower only for tests or very small machines. */
  PASSWORD_SCRYPT_LOG2_N: envInt(17, 12, 20),
});

const R = 8;
const P = 1;
const KEYLEN = 32;
const MAX_WAITING = 64;

let cost: number | undefined;
/** The current N. */
function currentN(): number {
  cost ??= 2 ** parseConfig(ZPasswordConfig).PASSWORD_SCRYPT_LOG2_N;
  return cost;
}

// A hash takes 128 MiB: one per core at once, and a bounded queue.
const slots = new Semaphore(Math.max(1, availableParallelism()), MAX_WAITING);

/** Runs one scrypt computation in a slot; refuses (429 busy) when too many are already waiting. */
async function inSlot<T>(work: () => Promise<T>): Promise<T> {
  if (!(await slots.acquire())) throw new AppError("TOO_MANY_REQUESTS", "password_hashing_busy");
  try {
    return await work();
  } finally {
    slots.release();
  }
}

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return inSlot(
    () =>
      new Promise((resolve, reject) =>
        scryptCb(
          password.normalize("NFKC"),
          salt,
          keylen,
          { ...options, maxmem: 129 * (options.N ?? 1) * (options.r ?? 8) },
          (error, key) => (error ? reject(error) : resolve(key)),
        ),
      ),
  );
}

/** Hashes a password with scrypt at the current cost and a random salt. */
export async function hashPassword(password: string): Promise<string> {
  const N = currentN();
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEYLEN, { N, r: R, p: P });
  return ["scrypt", N, R, P, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** Checks a password against a stored hash in constant time; false for any malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [, n, r, p, saltText, hashText] = parts as [string, string, string, string, string, string];
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (
    ![params.N, params.r, params.p].every((v) => Number.isInteger(v) && v > 0) ||
    params.N > 2 ** 20 ||
    params.r > 32 ||
    params.p > 4
  )
    return false;
  const expected = Buffer.from(hashText, "base64url");
  if (expected.length === 0) return false;
  const actual = await scrypt(password, Buffer.from(saltText, "base64url"), expected.length, params);
  return timingSafeEqual(actual, expected);
}

/** True when a stored hash is cheaper than the current cost (or not ours): rehash it at the next sign-in. */
export function needsRehash(stored: string): boolean {
  const [kind, n, r, p] = stored.split("$");
  return kind !== "scrypt" || Number(n) < currentN() || Number(r) !== R || Number(p) !== P;
}

let dummyHash: Promise<string> | undefined;

/** Spends the same time as a real check, for unknown accounts, so timing does not reveal them. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword("not-a-real-password").catch((error: unknown) => {
    dummyHash = undefined;
    throw error;
  });
  await verifyPassword(password, await dummyHash);
}

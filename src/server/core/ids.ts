import { randomFillSync } from "node:crypto";

// Random bytes are drawn a few kilobytes at a time (as crypto.randomUUID does): one system call per
// 256 ids instead of one each; every id still takes fresh bytes of its own.
const POOL = Buffer.alloc(16 * 256);
let poolOffset = POOL.length;

/** A time-ordered UUID (version 7), so ids made in code sort like the database's own defaults. */
export function uuidv7(now = Date.now()): string {
  if (poolOffset + 16 > POOL.length) {
    randomFillSync(POOL);
    poolOffset = 0;
  }
  const bytes = POOL.subarray(poolOffset, poolOffset + 16);
  poolOffset += 16;
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = 0x70 | ((bytes[6] ?? 0) & 0x0f);
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a value is a UUID in its text form (any version, either case). */
export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}

import { needsReseal, reseal, type KeyRing } from "./seal";

/** One row's sealed columns: each column's sealed text and the additional data it is bound to. */
export interface SealedRow<K extends string> {
  id: string;
  sealed: Record<K, { value: string; aad: string }>;
}

/**
 * Re-seals rows under the ring's first key (rotation step 3, docs/secrets.md): reads them in id order
 * and batches (`read(after, take)`), and for each row with a column under an older key writes every
 * column re-sealed (`write(id, before, after)`, a compare-and-set on `before` that answers how many rows
 * it changed, so a concurrent change wins). Returns the rows re-sealed.
 */
export async function resealRows<K extends string>(
  ring: KeyRing,
  batchSize: number,
  read: (after: string | undefined, take: number) => Promise<SealedRow<K>[]>,
  write: (id: string, before: Record<K, string>, after: Record<K, string>) => Promise<number>,
): Promise<number> {
  let done = 0;
  let cursor: string | undefined;
  for (;;) {
    const batch = await read(cursor, batchSize);
    if (batch.length === 0) return done;
    for (const row of batch) {
      const columns = Object.entries(row.sealed) as [K, { value: string; aad: string }][];
      if (!columns.some(([, c]) => needsReseal(ring, c.value))) continue;
      const before = Object.fromEntries(columns.map(([k, c]) => [k, c.value])) as Record<K, string>;
      const after = Object.fromEntries(columns.map(([k, c]) => [k, reseal(ring, c.value, c.aad)])) as Record<K, string>;
      done += await write(row.id, before, after);
    }
    cursor = batch.at(-1)?.id;
  }
}

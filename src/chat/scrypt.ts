// scrypt (RFC 7914) over WebCrypto's PBKDF2-HMAC-SHA256, with ROMix and Salsa20/8 written here: the browser
// has no scrypt of its own, and the key backup needs a memory-hard function (a GPU guessing passphrases
// must pay N × 128 × r bytes per guess). Portable: browsers and Node's globalThis.crypto.
// Checked against node:crypto's scryptSync and the RFC's vectors (scrypt.test.ts).

/** Cost parameters: N a power of two (memory 128 × r × N bytes), r the block size, p the parallelism. */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

async function pbkdf2(password: Uint8Array, salt: Uint8Array, bytes: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", password as BufferSource, "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: salt as BufferSource, iterations: 1 },
    key,
    bytes * 8,
  );
  return new Uint8Array(bits);
}

const rotl = (a: number, b: number) => (a << b) | (a >>> (32 - b));

/** Salsa20/8 core on 16 words of `b` at `bi`, in place (RFC 7914, section 3); `x` is scratch space. */
function salsa8(b: Uint32Array, bi: number, x: Uint32Array): void {
  x.set(b.subarray(bi, bi + 16));
  // Words as locals: the rounds then read no typed-array slot that could be undefined to the compiler.
  let [x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15] = x as unknown as number[] as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  for (let i = 0; i < 8; i += 2) {
    x4 ^= rotl((x0 + x12) | 0, 7);
    x8 ^= rotl((x4 + x0) | 0, 9);
    x12 ^= rotl((x8 + x4) | 0, 13);
    x0 ^= rotl((x12 + x8) | 0, 18);
    x9 ^= rotl((x5 + x1) | 0, 7);
    x13 ^= rotl((x9 + x5) | 0, 9);
    x1 ^= rotl((x13 + x9) | 0, 13);
    x5 ^= rotl((x1 + x13) | 0, 18);
    x14 ^= rotl((x10 + x6) | 0, 7);
    x2 ^= rotl((x14 + x10) | 0, 9);
    x6 ^= rotl((x2 + x14) | 0, 13);
    x10 ^= rotl((x6 + x2) | 0, 18);
    x3 ^= rotl((x15 + x11) | 0, 7);
    x7 ^= rotl((x3 + x15) | 0, 9);
    x11 ^= rotl((x7 + x3) | 0, 13);
    x15 ^= rotl((x11 + x7) | 0, 18);
    x1 ^= rotl((x0 + x3) | 0, 7);
    x2 ^= rotl((x1 + x0) | 0, 9);
    x3 ^= rotl((x2 + x1) | 0, 13);
    x0 ^= rotl((x3 + x2) | 0, 18);
    x6 ^= rotl((x5 + x4) | 0, 7);
    x7 ^= rotl((x6 + x5) | 0, 9);
    x4 ^= rotl((x7 + x6) | 0, 13);
    x5 ^= rotl((x4 + x7) | 0, 18);
    x11 ^= rotl((x10 + x9) | 0, 7);
    x8 ^= rotl((x11 + x10) | 0, 9);
    x9 ^= rotl((x8 + x11) | 0, 13);
    x10 ^= rotl((x9 + x8) | 0, 18);
    x12 ^= rotl((x15 + x14) | 0, 7);
    x13 ^= rotl((x12 + x15) | 0, 9);
    x14 ^= rotl((x13 + x12) | 0, 13);
    x15 ^= rotl((x14 + x13) | 0, 18);
  }
  const out = [x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15];
  for (let i = 0; i < 16; i++) b[bi + i] = ((b[bi + i] ?? 0) + (out[i] ?? 0)) | 0;
}

/** BlockMix (RFC 7914, section 4) of `B` (2r blocks of 16 words) into `Y`, then back to `B`. */
function blockMix(B: Uint32Array, Y: Uint32Array, r: number, x: Uint32Array, t: Uint32Array): void {
  t.set(B.subarray((2 * r - 1) * 16, 2 * r * 16));
  for (let i = 0; i < 2 * r; i++) {
    for (let j = 0; j < 16; j++) t[j] = (t[j] ?? 0) ^ (B[i * 16 + j] ?? 0);
    salsa8(t, 0, x);
    // Even blocks to the first half, odd ones to the second (the RFC's Y_0, Y_2, … then Y_1, Y_3, …).
    Y.set(t, (i % 2 === 0 ? i / 2 : r + (i - 1) / 2) * 16);
  }
  B.set(Y);
}

/** scrypt(password, salt, N, r, p, dkLen). Yields to the event loop now and then so a page stays responsive. */
export async function scrypt(
  password: Uint8Array,
  salt: Uint8Array,
  { N, r, p }: ScryptParams,
  dkLen: number,
): Promise<Uint8Array> {
  if (N < 2 || (N & (N - 1)) !== 0) throw new RangeError("N must be a power of two above 1");
  if (r < 1 || p < 1 || r * p >= 2 ** 30) throw new RangeError("bad r or p");
  const blockWords = 32 * r;
  const bytes = await pbkdf2(password, salt, p * 128 * r);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const V = new Uint32Array(blockWords * N);
  const X = new Uint32Array(blockWords);
  const Y = new Uint32Array(blockWords);
  const x = new Uint32Array(16);
  const t = new Uint32Array(16);
  for (let i = 0; i < p; i++) {
    const at = i * 128 * r;
    for (let k = 0; k < blockWords; k++) X[k] = view.getUint32(at + k * 4, true);
    for (let j = 0; j < N; j++) {
      V.set(X, j * blockWords);
      blockMix(X, Y, r, x, t);
      if ((j & 1023) === 1023) await yieldNow();
    }
    for (let j = 0; j < N; j++) {
      // Integerify: the first word of the last 64-byte block, mod N (N ≤ 2^32 here).
      const v = (X[(2 * r - 1) * 16] ?? 0) & (N - 1);
      for (let k = 0; k < blockWords; k++) X[k] = (X[k] ?? 0) ^ (V[v * blockWords + k] ?? 0);
      blockMix(X, Y, r, x, t);
      if ((j & 1023) === 1023) await yieldNow();
    }
    for (let k = 0; k < blockWords; k++) view.setUint32(at + k * 4, X[k] ?? 0, true);
  }
  return pbkdf2(password, bytes, dkLen);
}

const yieldNow = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

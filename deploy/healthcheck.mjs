// Container health check (deploy/compose.yaml): exits 0 when the URL answers 2xx within 3 seconds,
// 1 otherwise. Node's own fetch, so the image needs no curl.
const url = process.argv[2];
if (!url) {
  process.stderr.write("usage: node deploy/healthcheck.mjs <url>\n");
  process.exit(2);
}
try {
  const res = await fetch(url, { signal: AbortSignal.timeout(3_000) });
  await res.body?.cancel();
  process.exit(res.ok ? 0 : 1);
} catch {
  process.exit(1);
}

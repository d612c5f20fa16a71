export const dynamic = "force-dynamic";

// The baseline of bench/pages.ts: a page with a heading and a paragraph, no script and no stylesheet,
// served by the same server, so the LCP of real pages can be read against it.
const HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Bare page</title></head>
<body><main><h1>Bare page</h1><p>The baseline of the page benchmark: markup only, served by the same Next.js server.</p></main></body></html>`;

/** A bare HTML page for benchmarks; answers 404 unless BENCH_ROUTES=1. */
export function GET() {
  if (process.env.BENCH_ROUTES !== "1")
    return Response.json({ error: { code: "NOT_FOUND", message: "no such path" } }, { status: 404 });
  return new Response(HTML, { headers: { "content-type": "text/html; charset=utf-8" } });
}

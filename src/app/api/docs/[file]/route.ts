import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { AppError } from "@/server/core/errors";
import { errorResponse } from "@/server/http/guard";

// Swagger UI's script and stylesheet for the API reference page (/<locale>/api-reference), served from
// our own origin so the page works offline and under the app's Content-Security-Policy. Only the
// files named here are served, streamed from the installed swagger-ui-dist (pinned in package.json).

const ASSETS: Record<string, string> = {
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui.css": "text/css; charset=utf-8",
};
const DIR = path.join(process.cwd(), "node_modules", "swagger-ui-dist");

/** One allow-listed Swagger UI file; 404 for any other name. */
export async function GET(_req: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
  if (!type) return errorResponse(new AppError("NOT_FOUND", "asset_not_found"));
  const full = path.join(DIR, file);
  const size = (await stat(full)).size;
  return new Response(Readable.toWeb(createReadStream(full)) as ReadableStream<Uint8Array>, {
    headers: { "content-type": type, "content-length": String(size), "cache-control": "public, max-age=86400" },
  });
}

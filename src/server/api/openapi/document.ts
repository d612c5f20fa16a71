import { generateOpenApiDocument } from "trpc-to-openapi";
import { APP_VERSION } from "@/server/core/version";
import { appRouter } from "../root";

let cached: ReturnType<typeof generateOpenApiDocument> | undefined;

/** The streamed exports are route handlers, not procedures: described here (docs/review-engine.md, "Reviews out"). */
function exportPath(kind: "job" | "batch" | "place") {
  const param = `${kind}_id`;
  const filters =
    kind === "place"
      ? [
          {
            name: "since",
            in: "query",
            required: false,
            schema: { type: "string" },
            description: "published at or after (a date or an ISO date-time)",
          },
          { name: "until", in: "query", required: false, schema: { type: "string" }, description: "published before" },
          { name: "rating", in: "query", required: false, schema: { type: "integer", minimum: 1, maximum: 5 } },
          { name: "language", in: "query", required: false, schema: { type: "string" } },
          {
            name: "q",
            in: "query",
            required: false,
            schema: { type: "string", maxLength: 100 },
            description: "text or author contains",
          },
        ]
      : [];
  return {
    get: {
      operationId: `${kind}ReviewsExport`,
      summary: `Every review of the ${kind} as CSV (header row, RFC 4180, formula guard) or NDJSON, streamed`,
      tags: ["review-engine"],
      security: [{ session: [] }],
      parameters: [
        { name: param, in: "path", required: true, schema: { type: "string", format: "uuid" } },
        {
          name: "format",
          in: "query",
          required: false,
          schema: { type: "string", enum: ["csv", "ndjson"], default: "csv" },
        },
        {
          name: "bom",
          in: "query",
          required: false,
          schema: { type: "boolean", default: false },
          description: "a UTF-8 byte-order mark before the CSV, for spreadsheet programs",
        },
        ...filters,
      ],
      responses: {
        "200": {
          description: "The reviews",
          content: {
            "text/csv": { schema: { type: "string" } },
            "application/x-ndjson": { schema: { type: "string" } },
          },
        },
        "401": { description: "No or an invalid API key" },
        "403": { description: "The key lacks jobs:read" },
        "404": { description: `No such ${kind} for this key` },
        "429": { description: "The key's rate limit" },
      },
    },
  };
}

/** The OpenAPI 3 document of the REST API, generated from the same tRPC procedures. */
export function openApiDocument(baseUrl: string) {
  cached ??= generateOpenApiDocument(appRouter, {
    title: "Review Mesh API",
    description:
      "REST view of the tRPC procedures. Signed-in operations use the session cookie of the web app. " +
      "Errors: { error: { code, message, details? } } with the status codes of docs/foundation.md.",
    version: APP_VERSION,
    baseUrl,
    securitySchemes: { session: { type: "apiKey", in: "cookie", name: "authjs.session-token" } },
  });
  const paths = (cached.paths ??= {}) as Record<string, unknown>;
  paths["/jobs/{job_id}/reviews/export"] ??= exportPath("job");
  paths["/batches/{batch_id}/reviews/export"] ??= exportPath("batch");
  paths["/places/{place_id}/reviews/export"] ??= exportPath("place");
  return cached;
}

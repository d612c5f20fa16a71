import { generateOpenApiDocument } from "trpc-to-openapi";
import { APP_VERSION } from "@/server/core/version";
import { appRouter } from "../root";

let cached: ReturnType<typeof generateOpenApiDocument> | undefined;

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
  return cached;
}

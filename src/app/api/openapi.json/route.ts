import { openApiDocument } from "@/server/api/openapi/document";
import { appEnv } from "@/server/env";

export const dynamic = "force-dynamic";

/** The OpenAPI 3 document of the REST API. */
export function GET() {
  return Response.json(openApiDocument(`${appEnv().PUBLIC_BASE_URL}/api`));
}

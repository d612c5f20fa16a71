/**
 * Swagger UI's own words (it has no translations), by the key of their translation in
 * account.apiReference.ui. Only these exact texts are replaced; the API's operation names, paths,
 * parameters, schemas and descriptions are the API's own and stay as they are (the page says so).
 */
export const SWAGGER_TEXT = {
  tryItOut: "Try it out",
  cancel: "Cancel",
  execute: "Execute",
  clear: "Clear",
  parameters: "Parameters",
  noParameters: "No parameters",
  requestBody: "Request body",
  responses: "Responses",
  code: "Code",
  description: "Description",
  links: "Links",
  noLinks: "No links",
  mediaType: "Media type",
  exampleValue: "Example Value",
  schema: "Schema",
  schemas: "Schemas",
  servers: "Servers",
  authorize: "Authorize",
  availableAuthorizations: "Available authorizations",
  close: "Close",
  logout: "Logout",
  serverResponse: "Server response",
  responseBody: "Response body",
  responseHeaders: "Response headers",
  requestUrl: "Request URL",
  name: "Name",
  details: "Details",
  download: "Download",
  undocumented: "Undocumented",
  value: "Value:",
} as const;
export type SwaggerTextKey = keyof typeof SWAGGER_TEXT;

import { z } from "zod";
import { ZPageInput } from "../meshes/schemas";
import { API_SCOPES, ZDate, ZIdInput } from "./schemas";

// Inputs and outputs of the API keys' administration (api-keys.ts), parsed once by the router or script.

export const ZCreateApiKeyInput = z.object({
  name: z.string().trim().min(1).max(100),
  scopes: z.array(z.enum(API_SCOPES)).min(1).max(3),
  rate_limit_per_minute: z.number().int().min(1).max(1_000_000).optional(),
  expires_at: z.coerce.date().optional(),
});
export type TCreateApiKeyInput = z.output<typeof ZCreateApiKeyInput>;

export const ZApiKeyOut = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.enum(API_SCOPES)),
  rate_limit_per_minute: z.number().int().nullable(),
  last_used_at: ZDate.nullable(),
  revoked_at: ZDate.nullable(),
  expires_at: ZDate.nullable(),
  created_at: ZDate,
});
export const ZCreatedApiKeyOut = ZApiKeyOut.extend({ key: z.string(), callback_secret: z.string() });
export const ZApiKeysPage = z.object({
  items: z.array(ZApiKeyOut),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export const ZListApiKeysInput = ZPageInput.extend({
  q: z.string().trim().max(100).optional(),
  revoked: z.enum(["yes", "no"]).optional(),
});

/** POST /api/admin/api-keys/{id}/revoke. */
export const ZRevokeApiKeyInput = ZIdInput;

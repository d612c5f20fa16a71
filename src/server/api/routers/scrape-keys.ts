import * as keys from "@/server/services/reviews/api-keys";
import * as ks from "@/server/services/reviews/api-keys.schema";
import { engineProcedure } from "../engine-procedure";
import { createTRPCRouter } from "../trpc";

const rest = (method: "GET" | "POST", path: `/${string}`, summary: string) => ({
  openapi: { method, path, summary, tags: ["api-keys"], protect: true },
});
const admin = engineProcedure("admin");

/** API keys (administrators in the pages, or a key with the admin scope): the key is shown once at creation. */
export const apiKeysRouter = createTRPCRouter({
  list: admin
    .meta(rest("GET", "/admin/api-keys", "List API keys (prefix, scopes, last use; never the key)"))
    .input(ks.ZListApiKeysInput)
    .output(ks.ZApiKeysPage)
    .query(({ ctx, input }) => keys.listApiKeys(ctx.service, input)),
  create: admin
    .meta(rest("POST", "/admin/api-keys", "Create an API key; the key and its callback secret are in this answer only"))
    .input(ks.ZCreateApiKeyInput)
    .output(ks.ZCreatedApiKeyOut)
    .mutation(({ ctx, input }) => keys.createApiKey(ctx.service, input)),
  revoke: admin
    .meta(rest("POST", "/admin/api-keys/{id}/revoke", "Revoke an API key at once"))
    .input(ks.ZRevokeApiKeyInput)
    .output(ks.ZApiKeyOut)
    .mutation(({ ctx, input }) => keys.revokeApiKey(ctx.service, input)),
});

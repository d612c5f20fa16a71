import { chatContext } from "@/server/services/chat/chat-context";
import { getKeyBackup, putKeyBackup } from "@/server/services/chat/key-backups";
import { ZKeyBackupInput, ZPutKeyBackupInput } from "@/server/services/chat/key-backups.schema";
import { registerBrowserDevice } from "@/server/services/chat/register-browser-device";
import { ZRegisterBrowserDeviceInput } from "@/server/services/chat/register-browser-device.schema";
import { ZMeshIdInput } from "@/server/services/meshes/schemas";
import { protectedProcedure } from "../trpc";
import { ZBrowserDeviceOut, ZChatContextOut, ZKeyBackupOut, ZKeyBackupStoredOut } from "../outputs/chat";

const rest = (method: "GET" | "POST" | "PUT", path: `/${string}`, summary: string) => ({
  openapi: { method, path, summary, tags: ["my"], protect: true },
});

/** The chat page's calls (router my; docs/mesh-api.md, "Browser devices" and "Key backup"). */
export const chatProcedures = {
  chatContext: protectedProcedure
    .meta(rest("GET", "/my/meshes/{meshId}/chat", "What the chat page needs: broker, root key, my browser devices"))
    .input(ZMeshIdInput)
    .output(ZChatContextOut)
    .query(({ ctx, input }) => chatContext(ctx.service, input)),
  registerBrowserDevice: protectedProcedure
    .meta(rest("POST", "/my/meshes/{meshId}/browser-devices", "Register keys made in this browser as my device"))
    .input(ZRegisterBrowserDeviceInput)
    .output(ZBrowserDeviceOut)
    .mutation(({ ctx, input }) => registerBrowserDevice(ctx.service, input)),
  putKeyBackup: protectedProcedure
    .meta(rest("PUT", "/my/meshes/{meshId}/key-backups/{memberId}", "Store a device's keys sealed with my passphrase"))
    .input(ZPutKeyBackupInput)
    .output(ZKeyBackupStoredOut)
    .mutation(({ ctx, input }) => putKeyBackup(ctx.service, input)),
  keyBackup: protectedProcedure
    .meta(rest("GET", "/my/meshes/{meshId}/key-backups/{memberId}", "A device's keys sealed with my passphrase"))
    .input(ZKeyBackupInput)
    .output(ZKeyBackupOut)
    .query(({ ctx, input }) => getKeyBackup(ctx.service, input)),
};

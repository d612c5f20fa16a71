// `mesh mcp` driven by the official MCP SDK client over stdio, as a coding assistant starts it. Every
// test spawns it through assistant() here, so one place decides which `mesh` runs (this checkout's
// shim today; an installed CLI by changing MESH_MCP_COMMAND).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { BIN, ROOT } from "./test-cli";

/** The command that runs `mesh`: this checkout's shim under the running node. */
export const MESH_MCP_COMMAND: string[] = [process.execPath, BIN];

/** A channel event as Claude Code receives it (Channels reference: content, and string meta). */
export const ChannelNotificationSchema = z.object({
  method: z.literal("notifications/claude/channel"),
  params: z.object({ content: z.string(), meta: z.record(z.string(), z.string()).optional() }),
});
export type ChannelEvent = z.output<typeof ChannelNotificationSchema>["params"];

/** Starts `mesh mcp <args>` for a MESH_HOME and connects an SDK client; notifications are collected. */
export async function assistant(home: string, args: string[] = [], env: Record<string, string> = {}) {
  const [command = process.execPath, ...pre] = MESH_MCP_COMMAND;
  const transport = new StdioClientTransport({
    command,
    args: [...pre, "mcp", ...args],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), ...env, MESH_HOME: home },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
  const client = new Client({ name: "test-assistant", version: "1.0.0" });
  const notes: Record<string, unknown>[] = [];
  const channel: ChannelEvent[] = [];
  client.setNotificationHandler(
    LoggingMessageNotificationSchema,
    (n) => void notes.push(n.params.data as Record<string, unknown>),
  );
  client.setNotificationHandler(ChannelNotificationSchema, (n) => void channel.push(n.params));
  await client.connect(transport);
  /** Calls a tool; `value` is its JSON answer, or its error text. */
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const r = (await client.callTool({ name, arguments: args })) as { content: { text: string }[]; isError?: boolean };
    return {
      error: r.isError === true,
      value: JSON.parse(r.isError ? JSON.stringify(r.content[0]?.text) : (r.content[0]?.text ?? "null")) as unknown,
    };
  };
  return { client, notes, channel, call, stderr: () => stderr, close: () => client.close() };
}

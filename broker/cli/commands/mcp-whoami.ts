import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { identityView, type McpIdentity } from "./mcp-identity";

/** Registers the `whoami` tool: the member this MCP server speaks as (its session and parent, if any). */
export function registerWhoami(server: McpServer, identity: McpIdentity): void {
  server.registerTool(
    "whoami",
    {
      title: "Who am I",
      description:
        "Your own identity in the mesh: member id, name (other peers see it), mesh, and the assistant session and parent member when this session has its own member.",
      inputSchema: {},
    },
    async () => ({
      content: [
        {
          type: "text" as const,
          text: JSON.stringify({
            ...identityView(identity.machine, identity.session),
            ...(identity.sessionProblem ? { session_problem: identity.sessionProblem } : {}),
          }),
        },
      ],
    }),
  );
}

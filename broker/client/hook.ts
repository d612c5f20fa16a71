// The status hook (docs/protocol.md, "Status hook"): POST /hook/set-status signed with the peer's key.
import { z } from "zod";
import { ZStatus, ZStatusText } from "../protocol/frames";
import { signHookAuth, WS_AUTH_HEADER } from "../protocol/ws-auth";
import { meshKeysOf, type TMeshConfig } from "./config-store";
import { brokerHttpUrl } from "./join-link";
import { ZErrorBody } from "./join";
import { postJson, retryAfterOf, type JsonAnswer } from "./post-json";

export const HOOK_PATH = "/hook/set-status";

export const ZHookInput = z.object({
  status: ZStatus,
  text: ZStatusText.nullish(),
  pid: z.number().int().min(1).max(2 ** 31 - 1),
  cwd: z.string().min(1).max(4096),
});
export type THookInput = z.input<typeof ZHookInput>;

const ZHookAnswer = z.object({ memberId: z.string(), status: z.string(), text: z.string().nullable(), at: z.string(), connected: z.boolean() });
export type THookAnswer = z.output<typeof ZHookAnswer>;

/** The broker refused the hook request, or could not be reached. */
export class HookError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status?: number,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "HookError";
  }
}

/** Sends a status through the hook endpoint as the peer of this mesh config. */
export async function setStatusViaHook(config: TMeshConfig, raw: THookInput): Promise<THookAnswer> {
  const input = ZHookInput.parse(raw);
  const body = JSON.stringify({ meshId: config.meshId, memberId: config.memberId, pid: input.pid, cwd: input.cwd, status: input.status, text: input.text ?? null });
  const auth = signHookAuth({ meshId: config.meshId, memberId: config.memberId, secretKey: meshKeysOf(config).signSecretKey, body });
  const url = brokerHttpUrl(config.brokerUrl, HOOK_PATH);
  let res: JsonAnswer;
  try {
    res = await postJson(url, body, { [WS_AUTH_HEADER]: auth });
  } catch (error) {
    throw new HookError("UNREACHABLE", `cannot reach the broker at ${url}: ${(error as Error).message}`);
  }
  if (res.status !== 200) {
    const parsed = ZErrorBody.safeParse(res.json);
    throw new HookError(
      parsed.success ? parsed.data.error.code : `HTTP_${res.status}`,
      parsed.success ? parsed.data.error.message : `the broker answered HTTP ${res.status}`,
      res.status,
      retryAfterOf(res.headers),
    );
  }
  const answer = ZHookAnswer.safeParse(res.json);
  if (!answer.success) throw new HookError("BAD_ANSWER", "the broker's answer to the hook is not what protocol v1 says", res.status);
  return answer.data;
}

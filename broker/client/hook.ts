// Requests a peer signs with its key (docs/protocol.md): the status hook (POST /hook/set-status) and
// leaving (POST /leave).
import { z } from "zod";
import { answerOptions, MeshClientError } from "./mesh-client-error";
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
  pid: z
    .number()
    .int()
    .min(1)
    .max(2 ** 31 - 1),
  cwd: z.string().min(1).max(4096),
});
export type THookInput = z.input<typeof ZHookInput>;

const ZHookAnswer = z.object({
  memberId: z.string(),
  status: z.string(),
  text: z.string().nullable(),
  at: z.string(),
  connected: z.boolean(),
});
export type THookAnswer = z.output<typeof ZHookAnswer>;

/** The broker refused the hook request, or could not be reached. */
export class HookError extends MeshClientError {
  constructor(code: string, message: string, status?: number, retryAfterSeconds?: number) {
    super(code, message, answerOptions(code, status, retryAfterSeconds));
    this.name = "HookError";
  }
}

/**
 * POSTs a body signed with the peer's key (the hook's `x-mesh-auth`) to a path of the mesh's broker;
 * the answer when it is 200, else HookError with the broker's code.
 */
export async function postSigned(config: TMeshConfig, urlPath: string, body: string): Promise<JsonAnswer> {
  const auth = signHookAuth({
    meshId: config.meshId,
    memberId: config.memberId,
    secretKey: meshKeysOf(config).signSecretKey,
    body,
  });
  const url = brokerHttpUrl(config.brokerUrl, urlPath);
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
  return res;
}

/** Sends a status through the hook endpoint as the peer of this mesh config. */
export async function setStatusViaHook(config: TMeshConfig, raw: THookInput): Promise<THookAnswer> {
  const input = ZHookInput.parse(raw);
  const body = JSON.stringify({
    meshId: config.meshId,
    memberId: config.memberId,
    pid: input.pid,
    cwd: input.cwd,
    status: input.status,
    text: input.text ?? null,
  });
  const res = await postSigned(config, HOOK_PATH, body);
  const answer = ZHookAnswer.safeParse(res.json);
  if (!answer.success)
    throw new HookError("BAD_ANSWER", "the broker's answer to the hook is not what protocol v1 says", res.status);
  return answer.data;
}

/**
 * `mesh leave`: this peer's membership ends at the broker (POST /leave, signed like the hook); then the
 * mesh's config and keys are removed from this machine. A membership the broker no longer knows (404)
 * is removed locally too.
 */
export async function leaveViaBroker(
  config: TMeshConfig,
  store: { remove(meshId: string): void },
): Promise<{ revokedAt: string | null }> {
  const body = JSON.stringify({ action: "leave", meshId: config.meshId, memberId: config.memberId });
  let revokedAt: string | null = null;
  try {
    const res = await postSigned(config, "/leave", body);
    revokedAt = z.object({ revokedAt: z.string() }).safeParse(res.json).data?.revokedAt ?? null;
  } catch (error) {
    // Already gone (left, removed, or its mesh archived): the broker answers 404 or 401 for it.
    if (!(error instanceof HookError) || (error.status !== 404 && error.status !== 401)) throw error;
  }
  store.remove(config.meshId);
  return { revokedAt };
}

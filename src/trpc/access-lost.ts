import { TRPCClientError } from "@trpc/client";

/** The tRPC error codes that mean "this is not yours to see (any more)": retrying will not change it. */
const TERMINAL = new Set(["NOT_FOUND", "FORBIDDEN", "UNAUTHORIZED"]);

/**
 * Whether a query failed because the signed-in user has no access (removed from the mesh, the mesh
 * gone, signed out), as opposed to a network blip or a server hiccup that a retry may cure.
 */
export function accessLost(error: unknown): boolean {
  const code = codeOf(error);
  return code !== undefined && TERMINAL.has(code);
}

/** The tRPC error code an answer carried; undefined for a failure with no answer (network, parse). */
function codeOf(error: unknown): string | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const code = (error.data as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}

/** Why access was lost: signed out (UNAUTHORIZED), or removed / gone (NOT_FOUND, FORBIDDEN); null if not lost. */
export function accessLostReason(error: unknown): "signedOut" | "removed" | null {
  if (!accessLost(error)) return null;
  return codeOf(error) === "UNAUTHORIZED" ? "signedOut" : "removed";
}

/** React Query's `retry`: up to three retries, none once access is lost. */
export function retryUnlessAccessLost(failures: number, error: unknown): boolean {
  return !accessLost(error) && failures < 3;
}

/** React Query's `refetchInterval`: poll every `ms` until access is lost, then stop. */
export function pollUnlessAccessLost(ms: number) {
  return (query: { state: { error: unknown } }): number | false => (accessLost(query.state.error) ? false : ms);
}

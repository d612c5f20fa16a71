import { TRPCClientError } from "@trpc/client";

interface ErrorData {
  zodError?: { formErrors: string[]; fieldErrors: Record<string, string[] | undefined> } | null;
  details?: { field?: string } | null;
}

/** Message keys (errorsApi.*) of a failed mutation, by field; "form" holds the rest. */
export function apiErrorKeys(error: unknown): Record<string, string[]> {
  if (!(error instanceof TRPCClientError)) return { form: ["generic"] };
  const data = (error.data ?? {}) as ErrorData;
  if (data.zodError) {
    const out: Record<string, string[]> = {};
    for (const [field, keys] of Object.entries(data.zodError.fieldErrors)) if (keys?.length) out[field] = keys;
    if (data.zodError.formErrors.length) out.form = data.zodError.formErrors;
    return out;
  }
  const field = data.details?.field;
  return field ? { [field]: [error.message] } : { form: [error.message] };
}

/** The one message key (errorsApi.*) a form shows for a failed mutation: the first of apiErrorKeys. */
export function firstApiErrorKey(error: unknown): string {
  return Object.values(apiErrorKeys(error)).flat()[0] ?? "generic";
}

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { statusTone, type Tone } from "./status";

/**
 * A state as a coloured badge: the colour from the one map (`STATUS_TONES`), the word from
 * `ui.status.<state>`; a state we have no word for is shown as it is, spaces for `_` and `-`.
 * Works in server and client components (no hooks beyond the translations).
 */
export function StatusBadge({ status, testId }: { status: string; testId?: string }) {
  const t = useTranslations("ui.status");
  const word = t.has(status) ? t(status) : status.replace(/[_-]+/g, " ");
  return (
    <span className={`badge tone-${statusTone(status)}`} data-status={status} data-testid={testId}>
      <span className="badge-dot" aria-hidden="true" />
      {word}
    </span>
  );
}

/** A label that is not a state (owner, admin, this device) in the same shape, in a tone of its choice. */
export function Tag({ tone = "neutral", children }: { tone?: Tone; children: ReactNode }) {
  return <span className={`badge tone-${tone}`}>{children}</span>;
}

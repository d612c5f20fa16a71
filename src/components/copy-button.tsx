"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

/** Copies a value to the clipboard and says so for a moment; `compact` is an icon button for table rows. */
export function CopyButton({ value, label, compact = false }: { value: string; label: string; compact?: boolean }) {
  const t = useTranslations("join");
  const [copied, setCopied] = useState(false);
  const text = copied ? t("copied") : t("copy");
  return (
    <button
      type="button"
      className={compact ? "icon-button" : "button secondary small"}
      aria-label={`${t("copy")}: ${label}`}
      title={compact ? text : undefined}
      onClick={() => {
        void navigator.clipboard?.writeText(value).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        });
      }}
    >
      {compact ? copied ? <CheckIcon /> : <CopyIcon /> : text}
    </button>
  );
}

/** Icons drawn inline (no icon font: every system shows them). */
function CopyIcon() {
  return (
    <svg
      aria-hidden="true"
      width="12"
      height="12"
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
    >
      <rect x="5.5" y="5.5" width="8.5" height="8.5" rx="1.5" />
      <path d="M10.5 3.5v-.5a1.5 1.5 0 0 0-1.5-1.5h-5.5a1.5 1.5 0 0 0-1.5 1.5v5.5a1.5 1.5 0 0 0 1.5 1.5h.5" />
    </svg>
  );
}

function CheckIcon() {
  return (
    <svg
      aria-hidden="true"
      width="12"
      height="12"
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      <path d="M3 8.5l3.5 3.5 6.5-7" />
    </svg>
  );
}

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
      {compact ? <span aria-hidden="true">{copied ? "✓" : "⧉"}</span> : text}
    </button>
  );
}

"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

/** Copies a value to the clipboard and says so for a moment. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const t = useTranslations("join");
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="button secondary small"
      aria-label={`${t("copy")}: ${label}`}
      onClick={() => {
        void navigator.clipboard?.writeText(value).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        });
      }}
    >
      {copied ? t("copied") : t("copy")}
    </button>
  );
}

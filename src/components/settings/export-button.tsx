"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

type State =
  | { kind: "idle" }
  | { kind: "preparing" }
  | { kind: "downloading"; bytes: number }
  | { kind: "done" }
  | { kind: "failed" };

/** Fetches the export bundle (GET /api/my/export) with visible progress, then saves it as a file. */
export function ExportButton() {
  const t = useTranslations("settings");
  const [state, setState] = useState<State>({ kind: "idle" });
  const busy = state.kind === "preparing" || state.kind === "downloading";

  async function run() {
    setState({ kind: "preparing" });
    try {
      const res = await fetch("/api/my/export", { headers: { accept: "application/json" } });
      if (!res.ok || !res.body) throw new Error(String(res.status));
      const reader = res.body.getReader();
      const chunks: Uint8Array[] = [];
      let bytes = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        bytes += value.byteLength;
        setState({ kind: "downloading", bytes });
      }
      const url = URL.createObjectURL(new Blob(chunks as BlobPart[], { type: "application/json" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = `review-mesh-export-${new Date().toISOString().slice(0, 10)}.json`;
      a.click();
      URL.revokeObjectURL(url);
      setState({ kind: "done" });
    } catch {
      setState({ kind: "failed" });
    }
  }

  return (
    <div className="stack-sm">
      <button type="button" className="button" onClick={() => void run()} disabled={busy} aria-busy={busy}>
        {t("exportButton")}
      </button>
      <p role="status" aria-live="polite" className={state.kind === "failed" ? "field-error" : "muted"}>
        {state.kind === "preparing"
          ? t("preparing")
          : state.kind === "downloading"
            ? t("downloading", { kb: Math.max(1, Math.round(state.bytes / 1024)) })
            : state.kind === "done"
              ? t("exportDone")
              : state.kind === "failed"
                ? t("exportFailed")
                : null}
      </p>
    </div>
  );
}

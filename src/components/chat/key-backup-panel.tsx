"use client";

import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { LocalTime } from "@/components/local-time";
import type { DeviceSecrets } from "@/chat/chat-client";
import { MIN_PASSPHRASE, sealKeys } from "@/chat/key-backup";
import { useTRPC } from "@/trpc/react";

/** Seals this device's keys with a passphrase (in the browser) and stores the sealed text on the server. */
export function KeyBackupPanel({
  meshId,
  device,
  lastBackup,
}: {
  meshId: string;
  device: DeviceSecrets;
  lastBackup: Date | null;
}) {
  const t = useTranslations("chat.backup");
  const trpc = useTRPC();
  const id = useId();
  const [passphrase, setPassphrase] = useState("");
  const [confirm, setConfirm] = useState("");
  const [problem, setProblem] = useState<"tooShort" | "mismatch" | "failed" | null>(null);
  const [sealing, setSealing] = useState(false);
  const [done, setDone] = useState<Date | null>(lastBackup);
  const put = useMutation(trpc.my.putKeyBackup.mutationOptions());

  const submit = async () => {
    if (passphrase.length < MIN_PASSPHRASE) return setProblem("tooShort");
    if (passphrase !== confirm) return setProblem("mismatch");
    setProblem(null);
    setSealing(true);
    try {
      const sealed = await sealKeys(device, passphrase);
      const stored = await put.mutateAsync({ meshId, memberId: device.memberId, sealed });
      setDone(stored.updatedAt);
      setPassphrase("");
      setConfirm("");
    } catch {
      setProblem("failed");
    } finally {
      setSealing(false);
    }
  };

  return (
    <details className="card stack-sm">
      <summary>
        <h2 className="inline-heading">{t("title")}</h2>
      </summary>
      <p className="muted">{t("body")}</p>
      <p role="status">
        {done ? (
          <>
            {t("last")} <LocalTime iso={done.toISOString()} />
          </>
        ) : (
          t("never")
        )}
      </p>
      <form
        className="form stack-sm"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-p`}>{t("passphrase")}</label>
          <input
            id={`${id}-p`}
            type="password"
            autoComplete="new-password"
            value={passphrase}
            aria-invalid={problem === "tooShort" ? true : undefined}
            onChange={(e) => setPassphrase(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-c`}>{t("confirm")}</label>
          <input
            id={`${id}-c`}
            type="password"
            autoComplete="new-password"
            value={confirm}
            aria-invalid={problem === "mismatch" ? true : undefined}
            onChange={(e) => setConfirm(e.target.value)}
          />
        </div>
        {problem ? (
          <p className="alert" role="alert">
            {problem === "tooShort" ? t("tooShort", { min: MIN_PASSPHRASE }) : t(problem)}
          </p>
        ) : null}
        <div className="row">
          <button type="submit" className="button secondary" disabled={sealing}>
            {sealing ? t("working") : t("submit")}
          </button>
        </div>
      </form>
    </details>
  );
}

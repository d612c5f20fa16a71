"use client";

import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { LocalTime } from "@/components/local-time";
import type { DeviceSecrets } from "@/chat/chat-client";
import { openKeys } from "@/chat/key-backup";
import { useTRPCClient } from "@/trpc/react";

/** Restores a backed-up browser device in this browser with its passphrase, or starts a new device. */
export function RestorePanel({
  meshId,
  backups,
  onRestored,
  onSkip,
}: {
  meshId: string;
  backups: readonly { memberId: string; displayName: string; backedUpAt: Date }[];
  onRestored: (device: DeviceSecrets) => void;
  onSkip: () => void;
}) {
  const t = useTranslations("chat.restore");
  const client = useTRPCClient();
  const id = useId();
  const [memberId, setMemberId] = useState(backups[0]?.memberId ?? "");
  const [passphrase, setPassphrase] = useState("");
  const [working, setWorking] = useState(false);
  const [wrong, setWrong] = useState(false);

  const submit = async () => {
    setWorking(true);
    setWrong(false);
    try {
      const backup = await client.my.keyBackup.query({ meshId, memberId });
      const device = await openKeys(backup.sealed, passphrase);
      if (device && device.memberId === memberId) onRestored(device);
      else setWrong(true);
    } catch {
      setWrong(true);
    } finally {
      setWorking(false);
    }
  };

  return (
    <div className="card stack-sm">
      <h2>{t("title")}</h2>
      <p>{t("body")}</p>
      <form
        className="form stack-sm"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {backups.length > 1 ? (
          <div className="field">
            <label htmlFor={`${id}-d`}>{t("device")}</label>
            <select id={`${id}-d`} value={memberId} onChange={(e) => setMemberId(e.target.value)}>
              {backups.map((b) => (
                <option key={b.memberId} value={b.memberId}>
                  {b.displayName}
                </option>
              ))}
            </select>
          </div>
        ) : backups[0] ? (
          <p className="muted">
            {t("deviceNamed", { name: backups[0].displayName })} <LocalTime iso={backups[0].backedUpAt.toISOString()} />
          </p>
        ) : null}
        <div className="field">
          <label htmlFor={`${id}-p`}>{t("passphrase")}</label>
          <input
            id={`${id}-p`}
            type="password"
            autoComplete="current-password"
            value={passphrase}
            onChange={(e) => setPassphrase(e.target.value)}
          />
        </div>
        {wrong ? (
          <p className="alert" role="alert">
            {t("wrong")}
          </p>
        ) : null}
        <div className="row">
          <button type="submit" className="button" disabled={working || passphrase === ""}>
            {working ? t("working") : t("submit")}
          </button>
          <button type="button" className="button secondary" onClick={onSkip} disabled={working}>
            {t("skip")}
          </button>
        </div>
      </form>
    </div>
  );
}

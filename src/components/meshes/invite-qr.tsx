"use client";

import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { QrCode } from "@/components/qr-code";

/** A button that shows (and hides) the QR code of an invite's link, drawn only when asked for. */
export function InviteQr({ value }: { value: string }) {
  const t = useTranslations("invite");
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className="stack-sm">
      <button
        type="button"
        className="button secondary small"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
      >
        {open ? t("hideQr") : t("showQr")}
      </button>
      <div id={id} hidden={!open}>
        {open ? <QrCode value={value} label={t("qrLabel")} /> : null}
      </div>
    </div>
  );
}

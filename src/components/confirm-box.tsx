"use client";

import { useId, type ReactNode } from "react";

/** The confirmation shown before what cannot be undone: the question, the danger button and Cancel. */
export function ConfirmBox({
  text,
  yes,
  cancel,
  pending,
  onYes,
  onCancel,
  children,
}: {
  text: string;
  yes: string;
  cancel: string;
  pending: boolean;
  onYes: () => void;
  onCancel: () => void;
  children?: ReactNode;
}) {
  const id = useId();
  return (
    <div className="card stack-sm" role="alertdialog" aria-labelledby={id}>
      <p id={id}>{text}</p>
      {children}
      <div className="row">
        <button type="button" className="button danger" disabled={pending} onClick={onYes}>
          {yes}
        </button>
        <button type="button" className="button secondary" onClick={onCancel}>
          {cancel}
        </button>
      </div>
    </div>
  );
}

"use client";

import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { startTransition, useState } from "react";
import { useRouter } from "@/i18n/navigation";
import { useTRPC } from "@/trpc/react";
import { firstApiErrorKey } from "../meshes/api-errors";

export interface DeletionFacts {
  email: string;
  allowed: boolean;
  removes: {
    meshesOwned: number;
    otherMembers: number;
    messages: number;
    meshesJoined: number;
    invites: number;
    sessions: number;
    cliLogins: number;
  };
  keeps: { apiKeys: number };
}

/**
 * The danger zone: what deleting the account removes and keeps (counted), the export offered first,
 * and the deletion itself once the account's e-mail address is typed. Afterwards the browser goes to
 * the start page, signed out, with a notice.
 */
export function DeleteAccount({ email, allowed, removes, keeps }: DeletionFacts) {
  const t = useTranslations("account");
  const router = useRouter();
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | null>(null);
  const remove = useMutation(
    trpc.my.deleteAccount.mutationOptions({
      // The session went with the account: the start page, and every server component (the header) drawn again, signed out.
      onSuccess: () =>
        startTransition(() => {
          router.replace({ pathname: "/", query: { notice: "account-deleted" } });
          router.refresh();
        }),
      onError: (e) => setError(firstApiErrorKey(e)),
    }),
  );
  const matches = typed.trim().toLowerCase() === email.toLowerCase();

  return (
    <div className="stack-sm">
      <p>
        <strong>{t("deleteLead")}</strong> <a href="#your-data">{t("exportFirst")}</a> {t("exportFirstBody")}
      </p>
      <h3>{t("removesTitle")}</h3>
      <ul className="list">
        <li>
          {t("removesMeshes", {
            meshes: removes.meshesOwned,
            members: removes.otherMembers,
            messages: removes.messages,
          })}
        </li>
        <li>{t("removesMemberships", { meshes: removes.meshesJoined })}</li>
        <li>{t("removesInvites", { invites: removes.invites })}</li>
        <li>{t("removesSessions", { sessions: removes.sessions, cli: removes.cliLogins })}</li>
        <li>{t("removesProfile")}</li>
      </ul>
      <h3>{t("keepsTitle")}</h3>
      <ul className="list">
        <li>{t("keepsHistory")}</li>
        <li>{t("keepsMessages")}</li>
        <li>{t("keepsEngine", { apiKeys: keeps.apiKeys })}</li>
      </ul>
      {!allowed ? (
        <p className="notice">{t("adminCannotDelete")}</p>
      ) : open ? (
        <form
          className="card form"
          role="alertdialog"
          aria-labelledby="delete-confirm-text"
          onSubmit={(event) => {
            event.preventDefault();
            if (matches) remove.mutate({ confirmEmail: typed });
          }}
        >
          <p id="delete-confirm-text">{t("deleteConfirm", { email })}</p>
          <div className="field">
            <label htmlFor="delete-confirm-email">{t("confirmEmail")}</label>
            <input
              id="delete-confirm-email"
              type="email"
              autoComplete="off"
              maxLength={254}
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              aria-invalid={!!error}
              aria-describedby={error ? "delete-confirm-error" : undefined}
            />
            {error ? (
              <small id="delete-confirm-error" className="field-error" role="alert">
                {t.has(`errors.${error}`) ? t(`errors.${error}`) : t("errors.unknown")}
              </small>
            ) : null}
          </div>
          <div className="row">
            <button type="submit" className="button danger" disabled={!matches || remove.isPending}>
              {remove.isPending ? t("deleting") : t("deleteYes")}
            </button>
            <button
              type="button"
              className="button secondary"
              onClick={() => (setOpen(false), setTyped(""), setError(null))}
            >
              {t("cancel")}
            </button>
          </div>
        </form>
      ) : (
        <button type="button" className="button danger secondary" onClick={() => setOpen(true)}>
          {t("deleteStart")}
        </button>
      )}
    </div>
  );
}

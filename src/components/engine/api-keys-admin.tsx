"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { ScrollRegion } from "@/components/widgets/scroll-region";
import { useState } from "react";
import { CopyField } from "@/components/copy-field";
import { LocalTime } from "@/components/local-time";
import { useTRPC } from "@/trpc/react";
import { Pager, QueryState } from "./progress";
import { ConfirmBox } from "@/components/confirm-box";

const SCOPES = ["jobs:read", "jobs:write", "admin"] as const;

/** API keys: create (the key and callback secret are shown once), list with last use, revoke. */
export function ApiKeysAdmin() {
  const t = useTranslations("engine");
  const trpc = useTRPC();
  const client = useQueryClient();
  const [page, setPage] = useState(1);
  const [q, setQ] = useState("");
  const list = useQuery({
    ...trpc.scrape.keys.list.queryOptions({ page, pageSize: 20, q: q || undefined }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => client.invalidateQueries({ queryKey: trpc.scrape.keys.list.queryKey() });
  const create = useMutation(trpc.scrape.keys.create.mutationOptions({ onSuccess: refresh }));
  const [revoking, setRevoking] = useState<{ id: string; name: string } | null>(null);
  const revoke = useMutation(
    trpc.scrape.keys.revoke.mutationOptions({ onSuccess: () => (setRevoking(null), refresh()) }),
  );
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<string[]>(["jobs:read", "jobs:write"]);
  const [rate, setRate] = useState("");
  const shown = create.data;
  const data = list.data;
  return (
    <div className="stack">
      <form
        className="card form form-grid"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate({
            name,
            scopes: scopes as (typeof SCOPES)[number][],
            ...(rate ? { rate_limit_per_minute: Number(rate) } : {}),
          });
        }}
      >
        <h2>{t("createKey")}</h2>
        <label className="field">
          <span>{t("keyName")}</span>
          <input name="key-name" required value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <fieldset className="row">
          <legend>{t("scopes")}</legend>
          {SCOPES.map((s) => (
            <label key={s}>
              <input
                type="checkbox"
                checked={scopes.includes(s)}
                onChange={(e) => setScopes(e.target.checked ? [...scopes, s] : scopes.filter((x) => x !== s))}
              />{" "}
              {s}
            </label>
          ))}
        </fieldset>
        <label className="field">
          <span>{t("ratePerMinute")}</span>
          <input
            type="number"
            min={1}
            value={rate}
            onChange={(e) => setRate(e.target.value)}
            placeholder={t("rateDefault")}
          />
        </label>
        <button type="submit" className="button" disabled={create.isPending || scopes.length === 0}>
          {t("create")}
        </button>
        {create.isError ? (
          <p className="alert" role="alert">
            {t("actionFailed")}
          </p>
        ) : null}
      </form>
      {shown ? (
        <div className="notice stack-sm" role="status">
          <p>
            <strong>{t("shownOnce")}</strong>
          </p>
          <CopyField label={t("apiKey")} value={shown.key} testId="created-api-key" />
          <CopyField label={t("callbackSecret")} value={shown.callback_secret} />
        </div>
      ) : null}
      <label className="field">
        <span>{t("search")}</span>
        <input type="search" value={q} onChange={(e) => (setQ(e.target.value), setPage(1))} />
      </label>
      <QueryState loading={list.isPending} error={list.isError} empty={data?.total === 0} />
      {data && data.total > 0 ? (
        <ScrollRegion label={t("keysTitle")}>
          <table>
            <thead>
              <tr>
                <th>{t("keyName")}</th>
                <th>{t("prefix")}</th>
                <th>{t("scopes")}</th>
                <th>{t("lastUsed")}</th>
                <th>{t("created")}</th>
                <th>{t("actions")}</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((k) => (
                <tr key={k.id}>
                  <td>{k.name}</td>
                  <td>
                    <code>{k.prefix}</code>
                  </td>
                  <td>{k.scopes.join(", ")}</td>
                  <td>{k.last_used_at ? <LocalTime iso={k.last_used_at.toISOString()} /> : t("never")}</td>
                  <td>
                    <LocalTime iso={k.created_at.toISOString()} />
                  </td>
                  <td>
                    {k.revoked_at ? (
                      t("revoked")
                    ) : (
                      <button
                        type="button"
                        className="button danger secondary small"
                        onClick={() => setRevoking({ id: k.id, name: k.name })}
                      >
                        {t("revoke")}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : null}
      {revoking ? (
        <ConfirmBox
          text={t("revokeKeyConfirm", { name: revoking.name })}
          yes={t("revokeKeyYes")}
          cancel={t("keepKey")}
          pending={revoke.isPending}
          onYes={() => revoke.mutate({ id: revoking.id })}
          onCancel={() => setRevoking(null)}
        />
      ) : null}
      {data ? <Pager page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} /> : null}
    </div>
  );
}

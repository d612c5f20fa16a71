"use client";

import { ConfirmBox } from "@/components/confirm-box";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { ScrollRegion } from "@/components/widgets/scroll-region";
import { useState } from "react";
import { useTRPC } from "@/trpc/react";
import { QueryState, versionLabel } from "./progress";
import { StatusBadge } from "@/components/ui/status-badge";

/** Scraper versions: traffic share per version, promote, deprecate, and registering a new version. */
export function ScrapersAdmin({ implementations }: { implementations: readonly string[] }) {
  const t = useTranslations("engine");
  const tt = useTranslations("truth");
  const trpc = useTRPC();
  const client = useQueryClient();
  const list = useQuery(trpc.scrape.registry.list.queryOptions({}));
  const refresh = () => client.invalidateQueries({ queryKey: trpc.scrape.registry.list.queryKey() });
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const traffic = useMutation(trpc.scrape.registry.traffic.mutationOptions({ onSuccess: refresh }));
  const promote = useMutation(trpc.scrape.registry.promote.mutationOptions({ onSuccess: refresh }));
  const deprecate = useMutation(trpc.scrape.registry.deprecate.mutationOptions({ onSuccess: refresh }));
  const create = useMutation(trpc.scrape.registry.create.mutationOptions({ onSuccess: refresh }));
  const [form, setForm] = useState({
    version: "",
    variant: "default",
    implementation: implementations[0] ?? "",
    traffic: "0",
  });
  const failed = [traffic, promote, deprecate, create].find((m) => m.isError);
  // The far-reaching action waiting for its confirmation: which version, and what.
  const [asked, setAsked] = useState<{ id: string; label: string; action: "promote" | "deprecate" } | null>(null);
  const data = list.data;
  return (
    <div className="stack">
      {asked ? (
        <ConfirmBox
          text={t(asked.action === "promote" ? "promoteConfirm" : "deprecateConfirm", { version: asked.label })}
          yes={t(asked.action === "promote" ? "promoteYes" : "deprecateYes")}
          cancel={t("keepVersion")}
          pending={promote.isPending || deprecate.isPending}
          onYes={() =>
            (asked.action === "promote" ? promote : deprecate).mutate(
              { id: asked.id },
              { onSettled: () => setAsked(null) },
            )
          }
          onCancel={() => setAsked(null)}
        />
      ) : null}
      {failed ? (
        <p className="alert" role="alert">
          {t("actionFailed")} {failed.error?.message}
        </p>
      ) : null}
      <QueryState loading={list.isPending} error={list.isError} empty={data?.items.length === 0} />
      {data && data.items.length > 0 ? (
        <>
          <p className="muted">{t("allocationSum", { sum: data.allocation_sum })}</p>
          <ScrollRegion label={t("scrapersTitle")} cards>
            <table>
              <thead>
                <tr>
                  <th>{t("version")}</th>
                  <th>{t("implementation")}</th>
                  <th>{t("traffic")}</th>
                  <th>{t("state")}</th>
                  <th>{t("actions")}</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((v) => (
                  <tr key={v.id} data-version={`${v.version}/${v.variant}`}>
                    <td>{versionLabel(v.version, v.variant, tt("noVersion"))}</td>
                    <td>{v.implementation}</td>
                    <td>
                      {v.deprecated ? (
                        t("percent", { value: 0 })
                      ) : (
                        <form
                          className="row"
                          onSubmit={(e) => {
                            e.preventDefault();
                            traffic.mutate({ id: v.id, traffic_percent: Number(drafts[v.id] ?? v.traffic_percent) });
                          }}
                        >
                          <input
                            type="number"
                            min={0}
                            max={100}
                            aria-label={t("trafficOf", { version: `${v.version}/${v.variant}` })}
                            value={drafts[v.id] ?? String(v.traffic_percent)}
                            onChange={(e) => setDrafts({ ...drafts, [v.id]: e.target.value })}
                            style={{ width: "5rem" }}
                          />
                          <button type="submit" className="button secondary small">
                            {t("save")}
                          </button>
                        </form>
                      )}
                    </td>
                    <td>
                      <StatusBadge status={v.deprecated ? "deprecated" : v.promoted_at ? "promoted" : "active"} />
                    </td>
                    <td className="row">
                      {!v.deprecated ? (
                        <>
                          <button
                            type="button"
                            className="button secondary small"
                            onClick={() =>
                              setAsked({ id: v.id, label: `${v.version}/${v.variant}`, action: "promote" })
                            }
                          >
                            {t("promote")}
                          </button>
                          <button
                            type="button"
                            className="button danger secondary small"
                            onClick={() =>
                              setAsked({ id: v.id, label: `${v.version}/${v.variant}`, action: "deprecate" })
                            }
                          >
                            {t("deprecate")}
                          </button>
                        </>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        </>
      ) : null}
      <form
        className="card form form-grid"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate({
            version: form.version,
            variant: form.variant,
            implementation: form.implementation,
            traffic_percent: Number(form.traffic),
          });
        }}
      >
        <h2>{t("registerVersion")}</h2>
        <label className="field">
          <span>{t("version")}</span>
          <input required value={form.version} onChange={(e) => setForm({ ...form, version: e.target.value })} />
        </label>
        <label className="field">
          <span>{t("variant")}</span>
          <input required value={form.variant} onChange={(e) => setForm({ ...form, variant: e.target.value })} />
        </label>
        <label className="field">
          <span>{t("implementation")}</span>
          <select value={form.implementation} onChange={(e) => setForm({ ...form, implementation: e.target.value })}>
            {implementations.map((i) => (
              <option key={i} value={i}>
                {i}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t("traffic")}</span>
          <input
            type="number"
            min={0}
            max={100}
            value={form.traffic}
            onChange={(e) => setForm({ ...form, traffic: e.target.value })}
          />
        </label>
        <button type="submit" className="button" disabled={create.isPending}>
          {t("register")}
        </button>
      </form>
    </div>
  );
}

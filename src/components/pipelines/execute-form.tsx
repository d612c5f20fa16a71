"use client";

import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/trpc/react";
import { ExecutionLive } from "./execution-live";

interface JsonProperty {
  type?: string;
  format?: string;
  description?: string;
  examples?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  items?: { type?: string; format?: string };
}
interface JsonSchema {
  properties?: Record<string, JsonProperty>;
  required?: string[];
}

type FieldKind = "date" | "text" | "list" | "number";

function kindOf(p: JsonProperty): FieldKind {
  if (p.type === "array") return "list";
  if (p.type === "integer" || p.type === "number") return "number";
  if (p.format === "date") return "date";
  return "text";
}

/** Turns the form's strings into the run request the schema describes (empty fields left out). */
export function toRunRequest(schema: JsonSchema, values: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(schema.properties ?? {})) {
    const raw = (values[name] ?? "").trim();
    if (!raw) continue;
    const kind = kindOf(p);
    if (kind === "list") out[name] = raw.split(/[\s,]+/).filter(Boolean);
    else if (kind === "number") out[name] = Number(raw);
    else out[name] = raw;
  }
  return out;
}

/** A field's first value: what the link to the form named (a place, jobs, batches), else the schema's default; never an example. */
function initialValue(p: JsonProperty, given: string | undefined): string {
  if (given !== undefined) return given;
  if (p.default !== undefined) return String(p.default);
  return "";
}

/** The execute form, generated from the pipeline's input JSON Schema, then the run's live progress. */
export function ExecuteForm({
  pipelineId,
  schema,
  stageNames,
  initial = {},
}: {
  pipelineId: string;
  schema: JsonSchema;
  stageNames: Record<string, string>;
  /** Values from the page's address (?place_key=…&origin=…): the "Analyse" links of places prefill the form. */
  initial?: Record<string, string>;
}) {
  const t = useTranslations("pipelines.execute");
  const tf = useTranslations("pipelines.fields");
  const trpc = useTRPC();
  const properties = Object.entries(schema.properties ?? {});
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(properties.map(([n, p]) => [n, initialValue(p, initial[n])])),
  );
  const [executionId, setExecutionId] = useState<string | null>(null);
  const execute = useMutation(trpc.pipelines.execute.mutationOptions({ onSuccess: (e) => setExecutionId(e.id) }));
  const details =
    execute.error?.data && "details" in execute.error.data
      ? (execute.error.data.details as { issues?: { path: string; message: string }[] } | null)
      : null;
  const fieldErrors = new Map((details?.issues ?? []).map((i) => [i.path, i.message]));
  const errorText = (code: string) => (tf.has(`errors.${code}`) ? tf(`errors.${code}`) : t("invalidValue"));
  // Refusals of the request as a whole (data the caller cannot read, the limit of active runs).
  const refusal = execute.error?.message ?? "";
  const limit =
    execute.error?.data && "details" in execute.error.data
      ? (execute.error.data.details as { limit?: number } | null)?.limit
      : undefined;
  const refusalText = t.has(`errors.${refusal}`) ? t(`errors.${refusal}`, { limit: limit ?? 0 }) : t("failed");

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setExecutionId(null);
    execute.mutate({ pipeline_id: pipelineId, input: toRunRequest(schema, values) });
  }

  return (
    <div className="stack">
      <form className="card form form-grid" onSubmit={onSubmit} noValidate aria-label={t("formLabel")}>
        {properties.map(([name, p]) => {
          const kind = kindOf(p);
          const error = fieldErrors.get(name);
          const label = tf.has(name) ? tf(name) : name;
          const hint = tf.has(`${name}Hint`) ? tf(`${name}Hint`) : (p.description ?? "");
          const common = {
            id: `f-${name}`,
            name,
            value: values[name] ?? "",
            "aria-invalid": error ? true : undefined,
            "aria-describedby": `f-${name}-hint${error ? ` f-${name}-error` : ""}`,
          };
          return (
            <div className="field" key={name}>
              <label htmlFor={`f-${name}`}>{label}</label>
              {kind === "list" ? (
                <textarea {...common} rows={2} onChange={(ev) => setValues({ ...values, [name]: ev.target.value })} />
              ) : (
                <input
                  {...common}
                  type={kind === "date" ? "date" : kind === "number" ? "number" : "text"}
                  min={p.minimum}
                  max={p.maximum}
                  onChange={(ev) => setValues({ ...values, [name]: ev.target.value })}
                />
              )}
              <span id={`f-${name}-hint`} className="muted small">
                {hint}
              </span>
              {error ? (
                <span id={`f-${name}-error`} className="field-error">
                  {errorText(error)}
                </span>
              ) : null}
            </div>
          );
        })}
        {execute.isError && !details?.issues ? (
          <p className="alert" role="alert" data-error={refusal}>
            {refusalText}
          </p>
        ) : null}
        <button className="button" type="submit" disabled={execute.isPending}>
          {execute.isPending ? t("submitting") : t("submit")}
        </button>
      </form>
      {executionId ? <ExecutionLive pipelineId={pipelineId} executionId={executionId} stageNames={stageNames} /> : null}
    </div>
  );
}

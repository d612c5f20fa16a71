"use client";

import { useRouter } from "next/navigation";
import { useId, useTransition, type FormEvent } from "react";

export interface FilterField {
  name: string;
  label: string;
  kind: "search" | "text" | "date" | "select";
  hint?: string;
  options?: { value: string; label: string }[];
}

interface Props {
  /** The page's path with its locale, e.g. /en/admin/meshes. */
  action: string;
  fields: FilterField[];
  /** The view's current params (the URL is the one source of truth). */
  values: Record<string, string>;
  /** Params the form carries along unchanged (sort and direction). */
  keep: string[];
  labels: { legend: string; apply: string; applying: string; clear: string };
}

/**
 * The filters of an admin table. A plain GET form (it works without JavaScript); with JavaScript it
 * leaves empty fields out of the URL and navigates without a full reload. Applying starts at page 1.
 */
export function FilterForm({ action, fields, values, keep, labels }: Props) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const id = useId();
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const query = new URLSearchParams();
    for (const [key, value] of new FormData(event.currentTarget)) {
      if (typeof value === "string" && value.trim()) query.set(key, value.trim());
    }
    const qs = query.toString();
    startTransition(() => router.push(qs ? `${action}?${qs}` : action));
  }
  return (
    // The key remounts the form when the URL changes (back button), so the fields show the view.
    <form
      key={JSON.stringify(values)}
      className="filters card"
      action={action}
      method="get"
      onSubmit={submit}
      aria-busy={pending}
    >
      <fieldset>
        <legend>{labels.legend}</legend>
        <div className="filter-grid">
          {fields.map((field) => {
            const fid = `${id}-${field.name}`;
            return (
              <div className="field" key={field.name}>
                <label htmlFor={fid}>{field.label}</label>
                {field.kind === "select" ? (
                  <select id={fid} name={field.name} defaultValue={values[field.name] ?? ""}>
                    {field.options?.map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
                      </option>
                    ))}
                  </select>
                ) : (
                  <input
                    id={fid}
                    name={field.name}
                    type={field.kind}
                    defaultValue={values[field.name] ?? ""}
                    aria-describedby={field.hint ? `${fid}-hint` : undefined}
                  />
                )}
                {field.hint ? (
                  <span id={`${fid}-hint`} className="muted small">
                    {field.hint}
                  </span>
                ) : null}
              </div>
            );
          })}
        </div>
        {keep.map((key) => (values[key] ? <input key={key} type="hidden" name={key} value={values[key]} /> : null))}
        <div className="row">
          <button type="submit" className="button" disabled={pending}>
            {pending ? labels.applying : labels.apply}
          </button>
          <a href={action}>{labels.clear}</a>
        </div>
      </fieldset>
    </form>
  );
}

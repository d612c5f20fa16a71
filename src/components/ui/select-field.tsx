"use client";

import type { ReactNode } from "react";

/**
 * A labelled <select> over a fixed list of values, the shape every list's sort and filter take.
 * With `allLabel`, an empty first option stands for "no filter" and the value may be "".
 */
export function SelectField<S extends string>({
  label,
  value,
  options,
  optionLabel,
  onChange,
  allLabel,
  inline = false,
}: {
  label: ReactNode;
  value: S | "";
  options: readonly S[];
  optionLabel: (value: S) => string;
  onChange: (value: S | "") => void;
  allLabel?: string;
  inline?: boolean;
}) {
  return (
    <label className={inline ? "field inline-field" : "field"}>
      <span>{label}</span>
      <select value={value} onChange={(e) => onChange(e.target.value as S | "")}>
        {allLabel !== undefined ? <option value="">{allLabel}</option> : null}
        {options.map((s) => (
          <option key={s} value={s}>
            {optionLabel(s)}
          </option>
        ))}
      </select>
    </label>
  );
}

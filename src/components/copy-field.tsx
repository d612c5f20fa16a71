import { CopyButton } from "./copy-button";

/** A labelled value people copy (a link, a command), with its copy button. */
export function CopyField({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="field">
      <span>{label}</span>
      <code className="copyable" data-testid={testId}>
        {value}
      </code>
      <CopyButton value={value} label={label} />
    </div>
  );
}

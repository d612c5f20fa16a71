import type { ReactNode } from "react";
import { IconAlert, IconInbox } from "./icons";

/**
 * The three states a list or a panel can be in besides showing its data, one look everywhere:
 * - EmptyState: nothing here (yet), with what to do next when there is something to do;
 * - LoadingState: a polite live region with a spinner and skeleton rows the height of the content;
 * - ErrorState: an alert in the danger tone, with a way to try again when there is one.
 */
export function EmptyState({
  title,
  children,
  action,
}: {
  title: ReactNode;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="state-box state-empty">
      <IconInbox size={28} />
      <div className="state-title">{title}</div>
      {children ? <div className="state-text">{children}</div> : null}
      {action ? <div className="state-action">{action}</div> : null}
    </div>
  );
}

export function LoadingState({ label, rows = 3 }: { label: ReactNode; rows?: number }) {
  return (
    <div className="state-loading" role="status" aria-live="polite">
      <p className="row">
        <span className="spinner" aria-hidden="true" />
        {label}
      </p>
      {Array.from({ length: rows }, (_, i) => (
        <span key={i} className="skeleton" aria-hidden="true" />
      ))}
    </div>
  );
}

export function ErrorState({
  title,
  children,
  action,
}: {
  title: ReactNode;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="state-box state-error" role="alert">
      <IconAlert size={28} />
      <div className="state-title">{title}</div>
      {children ? <div className="state-text">{children}</div> : null}
      {action ? <div className="state-action">{action}</div> : null}
    </div>
  );
}

/**
 * The state of a query-backed list before it has items to show: loading, failed, or empty, in
 * that order of precedence for a failure (a failed refetch over stale data still says so).
 * Renders nothing when the list has data.
 */
export function ListState({
  loading,
  error,
  empty,
  labels,
  emptyText,
}: {
  loading: boolean;
  error: boolean;
  empty: boolean;
  labels: { loading: ReactNode; error: ReactNode; empty: ReactNode };
  emptyText?: ReactNode;
}) {
  if (error) return <ErrorState title={labels.error} />;
  if (loading) return <LoadingState label={labels.loading} />;
  if (empty) return <EmptyState title={labels.empty}>{emptyText}</EmptyState>;
  return null;
}

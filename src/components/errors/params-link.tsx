"use client";

import { useParams } from "next/navigation";
import { Link } from "@/i18n/navigation";

/**
 * A link whose path takes the current route's params (`/pipelines/[pipelineId]/executions`), for
 * not-found pages, which Next renders without params.
 */
export function ParamsLink({
  pattern,
  children,
  className,
}: {
  pattern: string;
  children: React.ReactNode;
  className?: string;
}) {
  const params = useParams<Record<string, string>>();
  const href = pattern.replace(/\[(\w+)\]/g, (_, key: string) => encodeURIComponent(params[key] ?? ""));
  return (
    <Link href={href} className={className}>
      {children}
    </Link>
  );
}

import type { ReactNode } from "react";
import "./pipelines.css";
import { requireAdmin } from "@/trpc/admin";

// Pipelines read the review engine's collected data, so they are for administrators, as the engine's
// pages (API keys use the REST paths): a signed-out visit goes to sign-in and comes back, any other
// user gets the 403 page. Every page checks it too (loadPipeline, the list), see requireAdmin.
export default async function PipelinesLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ locale: string }>;
}) {
  const { locale } = await params;
  await requireAdmin(locale, "/pipelines");
  return children;
}

import type { ReactNode } from "react";
import "./pipelines.css";
import { redirect } from "@/i18n/navigation";
import { getSessionUser } from "@/server/auth/session-user";

// Every pipeline page needs a signed-in user; a signed-out visit goes to sign-in and comes back.
export default async function PipelinesLayout({ children, params }: { children: ReactNode; params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  if (!(await getSessionUser())) {
    redirect({ href: { pathname: "/sign-in", query: { reason: "signed-out", callbackUrl: `/${locale}/pipelines` } }, locale });
  }
  return children;
}

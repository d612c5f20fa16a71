import { forbidden } from "next/navigation";
import type { ReactNode } from "react";
import { AdminNav } from "@/components/admin/admin-nav";
import { redirect } from "@/i18n/navigation";
import { getSessionUser } from "@/server/auth/session-user";

// Administrators only: a signed-out visit goes to sign-in and comes back; any other user gets the
// 403 page (src/app/[locale]/forbidden.tsx) with HTTP status 403. Checked here, above the pages'
// loading boundary, so the status is decided before anything streams.
export default async function AdminLayout({ children, params }: { children: ReactNode; params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  const user = await getSessionUser();
  if (!user) {
    return redirect({ href: { pathname: "/sign-in", query: { reason: "signed-out", callbackUrl: `/${locale}/admin` } }, locale });
  }
  if (!user.isAdmin) forbidden();
  return (
    <div className="admin stack">
      <AdminNav />
      {children}
    </div>
  );
}

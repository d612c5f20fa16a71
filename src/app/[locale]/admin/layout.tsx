import type { ReactNode } from "react";
import { AdminNav } from "@/components/admin/admin-nav";
import { requireAdmin } from "@/trpc/admin";

// Administrators only: a signed-out visit goes to sign-in and comes back; any other user gets the
// 403 page (src/app/[locale]/forbidden.tsx) with HTTP status 403. Checked here, above the pages'
// loading boundary, so the status is decided before anything streams (and in each page, see requireAdmin).
export default async function AdminLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ locale: string }>;
}) {
  const { locale } = await params;
  await requireAdmin(locale);
  return (
    <div className="admin stack">
      <AdminNav />
      {children}
    </div>
  );
}

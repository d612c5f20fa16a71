/** The admin rule: a user is an administrator when their e-mail is listed in ADMIN_EMAILS. */
export function isAdminEmail(email: string | null | undefined, adminEmails: string): boolean {
  if (!email) return false;
  const wanted = email.trim().toLowerCase();
  return adminEmails
    .split(",")
    .map((e) => e.trim().toLowerCase())
    .some((e) => e.length > 0 && e === wanted);
}

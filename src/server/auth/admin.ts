/**
 * The admin rule: a user is an administrator when their e-mail is listed in ADMIN_EMAILS and they
 * have confirmed it (sign-up is open, so an address an operator listed could be registered by someone
 * else first; docs/security.md, "Accounts").
 */
export function isAdministrator(user: { email: string | null; emailVerified: boolean }, adminEmails: string): boolean {
  return user.emailVerified && isAdminEmail(user.email, adminEmails);
}

/** Whether the address is listed in ADMIN_EMAILS (compared case-insensitively). */
export function isAdminEmail(email: string | null | undefined, adminEmails: string): boolean {
  if (!email) return false;
  const wanted = email.trim().toLowerCase();
  return adminEmails
    .split(",")
    .map((e) => e.trim().toLowerCase())
    .some((e) => e.length > 0 && e === wanted);
}

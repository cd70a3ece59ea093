/**
 * The admin area's pages, in menu order: one list for the web app's routes and menu and for the
 * server's log redaction (each page also takes the admin secret as its last path segment, which
 * the request log must not keep). A new admin page is one entry here plus its component in
 * web/src/features/admin/pages.tsx (ARCHITECTURE.md, "Where does new code go").
 */
export const ADMIN_PAGES = [
  { slug: 'dashboard', label: 'Dashboard' },
  { slug: 'events', label: 'Recent Events' },
  { slug: 'emails', label: 'Manage Emails' },
  { slug: 'feedback', label: 'User Feedback' },
  { slug: 'question-sets', label: 'Question Sets' },
] as const;

export type AdminPageSlug = (typeof ADMIN_PAGES)[number]['slug'];

/** The page `/admin` itself shows (and whose secret may follow `/admin/` directly). */
export const ADMIN_INDEX_PAGE: AdminPageSlug = 'dashboard';

/** The fewest characters, and different characters, of an admin secret the server accepts (server/admin-secret.ts). */
export const MIN_ADMIN_SECRET_LENGTH = 16;
export const MIN_ADMIN_SECRET_DISTINCT = 10;

/**
 * Every admin secret the server accepts has at least MIN_ADMIN_SECRET_LENGTH characters,
 * MIN_ADMIN_SECRET_DISTINCT of them different (the generated one has 32): a shorter last segment
 * of an admin address is an unknown page, not a secret to check (issue 35).
 */
export function couldBeAdminSecret(segment: string): boolean {
  return segment.length >= MIN_ADMIN_SECRET_LENGTH && new Set(segment).size >= MIN_ADMIN_SECRET_DISTINCT;
}

/**
 * The web app's addresses (docs/product-rules.md, Screens and routes; web/src/app/router.tsx and
 * the admin area's routes): the server answers them with the app, and anything else with the app
 * and HTTP 404, so a mistyped link is a "not found" to search engines, monitors and proxies too.
 */
import { ADMIN_PAGES } from './admin-pages';

const SCREENS = new Set(['/', '/history', '/test/question-set-item', '/admin']);
const ADMIN_SLUGS = new Set<string>(ADMIN_PAGES.map((page) => page.slug));

export function isClientRoute(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (SCREENS.has(path)) return true;
  const parts = path.split('/').slice(1);
  if (parts[0] !== 'admin') return false;
  // /admin/<page>, or /admin/<secret> (the dashboard's), or /admin/<page>/<secret>.
  if (parts.length === 2) return (parts[1] ?? '') !== '';
  return parts.length === 3 && ADMIN_SLUGS.has(parts[1] ?? '') && (parts[2] ?? '') !== '';
}

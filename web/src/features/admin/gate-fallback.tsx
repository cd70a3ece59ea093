/**
 * What a page load of the admin area shows until its routes, the gate's check and the page's data
 * are in (the router's first load renders only the root route's HydrateFallback, app/router.tsx):
 * the gate in its verifying state, since every page load asks whether this browser still holds an
 * admin session, or checks the secret in the address (docs/product-rules.md, Admin area). An
 * unknown admin page shows nothing: it has no gate (admin-layout.tsx).
 */
import { matchPath, useLocation } from 'react-router';
import { ADMIN_PAGES, couldBeAdminSecret } from '../../../../domain/admin-pages';
import { AdminGate } from './admin-gate';
import '../../styles/app.css';

const SLUGS: ReadonlySet<string> = new Set(ADMIN_PAGES.map((page) => page.slug));

/** The secret in an admin address (`/admin/<secret>`, `/admin/<page>/<secret>`), as routes.tsx reads it. */
export function routeSecretIn(pathname: string): string | undefined {
  const page = matchPath('/admin/:slug/:secret', pathname);
  const secret = page
    ? SLUGS.has(page.params.slug ?? '')
      ? page.params.secret
      : undefined
    : matchPath('/admin/:secret', pathname)?.params.secret;
  return secret !== undefined && !SLUGS.has(secret) && couldBeAdminSecret(secret) ? secret : undefined;
}

/** Whether the address is an admin page (`/admin`, `/admin/<page>`, either with a secret after it); anything else under /admin does not exist. */
export function isAdminPage(pathname: string): boolean {
  if (matchPath('/admin', pathname)) return true;
  const one = matchPath('/admin/:segment', pathname)?.params.segment;
  if (one !== undefined) return SLUGS.has(one) || routeSecretIn(pathname) !== undefined;
  return routeSecretIn(pathname) !== undefined;
}

const ignore = () => undefined;

export function AdminGateFallback() {
  const { pathname } = useLocation();
  return isAdminPage(pathname) ? <AdminGate state={{ status: 'verifying' }} onSubmit={ignore} /> : null;
}

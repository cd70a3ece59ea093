/**
 * What a page load of the admin area shows until its routes, the gate's check and the page's data
 * are in (the router's first load renders only the root route's HydrateFallback, app/router.tsx):
 * the gate in its verifying state while a saved secret or one in the address is being checked
 * (docs/product-rules.md, Admin area). Without a secret to check it shows nothing: the locked gate
 * follows as soon as the admin chunk is in.
 */
import { matchPath, useLocation } from 'react-router';
import { ADMIN_PAGES } from '../../../../domain/admin-pages';
import { ADMIN_SECRET_KEY, readStored } from '../../lib/storage';
import { AdminGate } from './admin-gate';
import '../../styles/app.css';

const SLUGS: ReadonlySet<string> = new Set(ADMIN_PAGES.map((page) => page.slug));

/** The secret in an admin address (`/admin/<secret>`, `/admin/<page>/<secret>`), as routes.tsx reads it. */
export function routeSecretIn(pathname: string): string | undefined {
  const page = matchPath('/admin/:slug/:secret', pathname);
  if (page) return SLUGS.has(page.params.slug ?? '') ? page.params.secret : undefined;
  const index = matchPath('/admin/:secret', pathname)?.params.secret;
  return index !== undefined && !SLUGS.has(index) ? index : undefined;
}

const ignore = () => undefined;

export function AdminGateFallback() {
  const { pathname } = useLocation();
  const checking = routeSecretIn(pathname) !== undefined || readStored(ADMIN_SECRET_KEY) !== null;
  return checking ? <AdminGate state={{ status: 'verifying' }} onSubmit={ignore} /> : null;
}

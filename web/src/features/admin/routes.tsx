import '../../styles/app.css';
import type { RouteObject } from 'react-router';
import { ADMIN_LAYOUT_ROUTE_ID } from './admin-route-id';
import { ADMIN_PAGE_ENTRIES, loadAdminIndexPage } from './pages';

/**
 * The admin area's routes, mounted by the app router under `/admin` when an admin address is first
 * visited; the layout and every page load when visited (interviewee screens never load them). On a
 * page load, the gate's verifying state comes from gate-fallback.tsx (app/router.tsx).
 *
 * Paths, from the page registry (pages.tsx): `/admin` and `/admin/:secret` show the index page
 * (the dashboard); every page has `/admin/<slug>` and `/admin/<slug>/:secret`. A route secret is
 * verified like a saved one, saved on success and then removed from the address
 * (docs/product-rules.md, "Admin area"; admin-layout.tsx).
 */
export const adminRoute: RouteObject = {
  id: ADMIN_LAYOUT_ROUTE_ID,
  path: 'admin',
  lazy: () => import('./admin-layout'),
  children: [
    { index: true, lazy: loadAdminIndexPage },
    // The index page's own secret parameter; the named pages below win over it.
    { path: ':secret', lazy: loadAdminIndexPage },
    ...ADMIN_PAGE_ENTRIES.flatMap(({ slug, load }): RouteObject[] => [
      { path: slug, lazy: load },
      { path: `${slug}/:secret`, lazy: load },
    ]),
    { path: '*', element: <p>This admin page does not exist.</p> },
  ],
};

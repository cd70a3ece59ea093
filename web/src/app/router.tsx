import { lazy, Suspense } from 'react';
import { createBrowserRouter, Outlet, useLocation, type RouteObject } from 'react-router';
import { loadConfig, ROOT_ROUTE_ID } from '../lib/config';
import { action as mainAction, loader as mainLoader, MainPage } from './routes/main';

/** The admin area's route table (it brings the full stylesheet), fetched on the first visit to /admin. */
async function adminRoutes(): Promise<RouteObject[]> {
  const { adminRoute } = await import('../features/admin/routes');
  return [adminRoute];
}

const isAdminPath = (path: string) => path === '/admin' || path.startsWith('/admin/');

/** The router's fallback screen is a chunk of its own (with the full stylesheet): a first screen that works does without it. */
const ErrorPage = lazy(() => import('./error-page').then((m) => ({ default: m.ErrorPage })));

const AdminGateFallback = lazy(() => import('../features/admin/gate-fallback').then((m) => ({ default: m.AdminGateFallback })));

/**
 * What the first load shows until the root's and the screen's loaders are done (the router renders
 * only the root's fallback then, even for routes found on the way). On an admin address: the gate,
 * verifying a saved secret or one in the address, from its own chunk (docs/product-rules.md, Admin area).
 */
function HydrateFallback() {
  const admin = isAdminPath(useLocation().pathname);
  return (
    <>
      <p className="p-6 text-slate-500">Loading…</p>
      {admin && (
        <Suspense fallback={null}>
          <AdminGateFallback />
        </Suspense>
      )}
    </>
  );
}

/**
 * The route table (ARCHITECTURE.md, "How a screen gets its data"). The root loader reads the app's
 * settings once; each screen's route module brings its own loader, action and error element. Only
 * the main screen is in the first chunk (docs/first-screen.md); every other screen is a lazy route
 * module loaded when visited, and the admin area's routes are discovered on the way to /admin.
 */
export const router = createBrowserRouter(
  [
    {
      id: ROOT_ROUTE_ID,
      path: '/',
      loader: loadConfig,
      // The settings do not change while the app runs: no reload after a form is sent.
      shouldRevalidate: () => false,
      element: <Outlet />,
      errorElement: (
        <Suspense fallback={null}>
          <ErrorPage />
        </Suspense>
      ),
      HydrateFallback,
      children: [
        { index: true, loader: mainLoader, action: mainAction, Component: MainPage },
        { path: 'history', lazy: () => import('./routes/history') },
        { path: 'signin', lazy: () => import('./routes/signin') },
        { path: 'test/question-set-item', lazy: () => import('./routes/tile-test') },
      ],
    },
  ],
  {
    async patchRoutesOnNavigation({ path, patch }) {
      if (isAdminPath(path)) patch(ROOT_ROUTE_ID, await adminRoutes());
    },
  },
);

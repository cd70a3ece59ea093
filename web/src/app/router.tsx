import { createBrowserRouter, Outlet } from 'react-router';
import { loadConfig, ROOT_ROUTE_ID } from '../lib/config';
import { action as mainAction, loader as mainLoader, MainPage } from './routes/main';
import { adminRoute } from '../features/admin/routes';
import { ErrorPage } from './error-page';

/**
 * The route table (ARCHITECTURE.md, "How a screen gets its data"). The root loader reads the app's
 * settings once; each screen's route module brings its own loader, action and error element. Only
 * the main screen is in the first chunk; every other screen is a lazy route module, loaded when visited.
 */
export const router = createBrowserRouter([
  {
    id: ROOT_ROUTE_ID,
    path: '/',
    loader: loadConfig,
    // The settings do not change while the app runs: no reload after a form is sent.
    shouldRevalidate: () => false,
    element: <Outlet />,
    errorElement: <ErrorPage />,
    hydrateFallbackElement: <p className="p-6 text-slate-500">Loading…</p>,
    children: [
      { index: true, loader: mainLoader, action: mainAction, Component: MainPage },
      { path: 'history', lazy: () => import('./routes/history') },
      {
        path: 'test/question-set-item',
        lazy: async () => ({ Component: (await import('../features/topics/tile-test-page')).default }),
      },
      // The admin area: a light route table here, its layout and pages load when visited.
      adminRoute,
    ],
  },
]);

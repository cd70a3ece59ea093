import { createBrowserRouter, Outlet } from 'react-router';
import { ConfigProvider } from '../lib/config-context';
import { MainPage } from './routes/main';
import { ErrorPage } from './error-page';

function Root() {
  return (
    <ConfigProvider>
      <Outlet />
    </ConfigProvider>
  );
}

/** Only the main screen is in the first chunk; every other page is loaded when visited. */
export const router = createBrowserRouter([
  {
    path: '/',
    element: <Root />,
    errorElement: <ErrorPage />,
    hydrateFallbackElement: <p className="p-6 text-slate-500">Loading…</p>,
    children: [
      { index: true, element: <MainPage /> },
      { path: 'history', lazy: async () => ({ Component: (await import('../features/history/history-page')).default }) },
      {
        path: 'test/question-set-item',
        lazy: async () => ({ Component: (await import('../features/topics/tile-test-page')).default }),
      },
      // The admin area declares its own nested <Routes> inside its default export.
      { path: 'admin/*', lazy: async () => ({ Component: (await import('../features/admin/routes')).default }) },
    ],
  },
]);

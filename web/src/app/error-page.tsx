import '../styles/app.css';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { buttonClasses } from '../components/button';

/** The router's fallback screen (docs/product-rules.md, Screens and routes). */
export function ErrorPage() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : null;
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <main className="flex min-h-dvh items-center justify-center bg-slate-50 p-6">
      <div className="max-w-md rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200">
        {/* The site's logo, so a visitor who followed a bad link sees where they are. */}
        <img src="/logo.svg" alt="" width={40} height={40} className="mx-auto mb-4 size-10" />
        <h1 className="text-xl font-semibold text-slate-900">Unexpected Application Error!</h1>
        {isRouteErrorResponse(error) && error.status === 404 && (
          <p className="mt-3 text-base text-slate-700">This page does not exist. Check the address, or go back to the home page.</p>
        )}
        {detail && <p className="mt-3 text-sm text-slate-600">{detail}</p>}
        <Link to="/" className={`${buttonClasses('primary')} mt-6`}>
          Go to Home
        </Link>
      </div>
    </main>
  );
}

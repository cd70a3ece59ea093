import { useCallback } from 'react';
import { NavLink, Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { AdminGate } from './admin-gate';
import { AdminSecretContext, useAdminGate } from './admin-secret';
import { ADMIN_PAGE_ENTRIES } from './pages';

/** `/admin/emails/s3cret` -> `/admin/emails`: a proven secret should not stay in the address bar or history. */
function withoutLastSegment(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed.slice(0, trimmed.lastIndexOf('/')) || '/admin';
}

/** docs/product-rules.md, Admin area: the admin layout with its side menu; the gate sits in front until a secret is verified. */
export function AdminLayout() {
  const { secret: routeSecret } = useParams();
  const navigate = useNavigate();
  const location = useLocation();

  const onVerified = useCallback(
    (fromRoute: boolean) => {
      if (fromRoute) void navigate(withoutLastSegment(location.pathname), { replace: true });
    },
    [navigate, location.pathname],
  );
  const { state, submit, lock } = useAdminGate(routeSecret, onVerified);
  const secret = state.status === 'unlocked' ? state.secret : null;

  return (
    <AdminSecretContext.Provider value={secret}>
      {/* While the gate is up, nothing behind it can be reached with the keyboard. */}
      <div className="flex min-h-screen bg-gray-50 text-gray-900" inert={state.status !== 'unlocked'}>
        <nav aria-label="Admin menu" className="flex w-56 shrink-0 flex-col gap-1 border-r border-gray-200 bg-white p-4">
          <p className="mb-3 text-lg font-bold">Admin</p>
          {ADMIN_PAGE_ENTRIES.map((item) => (
            <NavLink
              key={item.to}
              to={item.to}
              end={item.to === '/admin'}
              className={({ isActive }) =>
                `rounded px-3 py-2 ${isActive ? 'bg-blue-100 font-semibold text-blue-800' : 'text-gray-700 hover:bg-gray-100'}`
              }
            >
              {item.label}
            </NavLink>
          ))}
          {secret !== null && (
            <button type="button" onClick={lock} className="mt-auto rounded px-3 py-2 text-left text-sm text-gray-500 hover:bg-gray-100">
              Sign out
            </button>
          )}
        </nav>
        <main className="min-w-0 flex-1 p-6">
          <Outlet />
        </main>
      </div>
      {state.status !== 'unlocked' && <AdminGate state={state} onSubmit={submit} />}
    </AdminSecretContext.Provider>
  );
}

/**
 * The admin area's layout route (docs/product-rules.md, Admin area): the side menu and the page,
 * with the gate in front until a secret is verified. Its loader decides the gate (admin-session.ts),
 * its action takes a typed secret or signs out; every page's own loader waits for the same check.
 */
import { useId, useState } from 'react';
import {
  NavLink,
  Outlet,
  redirect,
  useFetcher,
  useLoaderData,
  useNavigation,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type ShouldRevalidateFunctionArgs,
} from 'react-router';
import { AdminGate } from './admin-gate';
import { lock, resolveGate, submitSecret, type Gate, type GateState } from './admin-session';
import { ADMIN_PAGE_ENTRIES } from './pages';
import { isAdminPage } from './gate-fallback';

/** Where the gate's form posts: the layout route itself (the index page below it has no action). */
const GATE_ACTION = '/admin';

/** `/admin/emails/s3cret` -> `/admin/emails`: a proven secret should not stay in the address bar or history. */
export function withoutLastSegment(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed.slice(0, trimmed.lastIndexOf('/')) || '/admin';
}

export async function loader({ params, request }: LoaderFunctionArgs): Promise<Gate> {
  // An unknown admin address has no gate: it says the page does not exist (issue 35).
  if (!isAdminPage(new URL(request.url).pathname)) return { status: 'missing' };
  const gate = await resolveGate(params.secret);
  if (gate.status === 'unlocked' && gate.inAddress) {
    const url = new URL(request.url);
    throw redirect(`${withoutLastSegment(url.pathname)}${url.search}`);
  }
  return gate;
}

/** A layout keeps its data while its pages change; leaving an unknown admin address (or reaching one) decides the gate again. */
export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs): boolean {
  return defaultShouldRevalidate || isAdminPage(currentUrl.pathname) !== isAdminPage(nextUrl.pathname);
}

export async function action({ request }: ActionFunctionArgs): Promise<null> {
  const form = await request.formData();
  if (form.get('intent') === 'sign-out') await lock();
  else await submitSecret(String(form.get('secret') ?? ''));
  return null;
}

/**
 * The side menu; below a tablet's width (md) a bar at the top whose "Menu" button opens the same
 * links (closed again by choosing one), so a phone's screen keeps its width for the page.
 */
function AdminMenu({ onSignOut }: { onSignOut: (() => void) | null }) {
  const [open, setOpen] = useState(false);
  const links = useId();
  return (
    <nav
      aria-label="Admin menu"
      className="flex w-full shrink-0 flex-col gap-1 border-b border-gray-200 bg-white p-3 md:w-56 md:border-r md:border-b-0 md:p-4"
    >
      <div className="flex items-center justify-between md:mb-3">
        <p className="text-lg font-bold">Admin</p>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={links}
          onClick={() => setOpen(!open)}
          className="rounded border border-gray-300 px-3 py-1.5 text-sm font-semibold text-gray-800 hover:bg-gray-100 focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-indigo-400/60 md:hidden"
        >
          Menu
        </button>
      </div>
      <div id={links} className={`${open ? 'flex' : 'hidden'} grow flex-col gap-1 md:flex`}>
        {ADMIN_PAGE_ENTRIES.map((item) => (
          <NavLink
            key={item.to}
            to={item.to}
            end={item.to === '/admin'}
            onClick={() => setOpen(false)}
            className={({ isActive }) =>
              `rounded px-3 py-2 ${isActive ? 'bg-blue-100 font-semibold text-blue-800' : 'text-gray-700 hover:bg-gray-100'}`
            }
          >
            {item.label}
          </NavLink>
        ))}
        {onSignOut && (
          <button type="button" onClick={onSignOut} className="mt-auto rounded px-3 py-2 text-left text-sm text-gray-500 hover:bg-gray-100">
            Sign out
          </button>
        )}
      </div>
    </nav>
  );
}

/** An address under /admin that is no admin page: said plainly, with the way to the dashboard. */
function MissingAdminPage() {
  return (
    <main className="mx-auto max-w-md space-y-4 bg-gray-50 px-4 py-16 text-center text-gray-900">
      <h1 className="text-xl font-bold">This admin page does not exist.</h1>
      <p className="text-gray-700">Check the address, or go to the admin dashboard.</p>
      <NavLink to="/admin" className="inline-block rounded bg-blue-600 px-4 py-2 font-semibold text-white hover:bg-blue-700">
        Go to the admin dashboard
      </NavLink>
    </main>
  );
}

export function Component() {
  const gate = useLoaderData<typeof loader>();
  const fetcher = useFetcher({ key: 'admin-gate' });
  const navigating = useNavigation().state === 'loading';
  const unlocked = gate.status === 'unlocked';
  const checking = fetcher.state !== 'idle' && fetcher.formData?.has('secret') === true;
  const shown: GateState | null = gate.status !== 'locked' ? null : checking ? { status: 'verifying' } : gate;
  const signOut = () => void fetcher.submit({ intent: 'sign-out' }, { method: 'post', action: GATE_ACTION });

  if (gate.status === 'missing') return <MissingAdminPage />;
  return (
    <>
      {/* While the gate is up, nothing behind it can be reached with the keyboard. */}
      <div className="flex min-h-screen flex-col bg-gray-50 text-gray-900 md:flex-row" inert={!unlocked}>
        <AdminMenu onSignOut={unlocked ? signOut : null} />
        {/* The page being left stays, dimmed, until the next one has its data. */}
        <main aria-busy={navigating} className={`min-w-0 flex-1 p-3 transition-opacity md:p-6 ${navigating ? 'opacity-60' : ''}`}>
          <Outlet />
        </main>
      </div>
      {shown && <AdminGate state={shown} onSubmit={(secret) => void fetcher.submit({ secret }, { method: 'post', action: GATE_ACTION })} />}
    </>
  );
}

/**
 * The admin gate (docs/product-rules.md, Admin area), as plain functions the admin routes' loaders
 * and action call. A typed secret or one from the address (`/admin/<secret>`,
 * `/admin/<page>/<secret>`) is sent once to POST /api/admin/session, whose answer sets an HttpOnly
 * admin session cookie; from then on every admin call carries the cookie, and the secret is kept
 * nowhere, neither in local storage (where any script on the page could read it) nor in this
 * module (docs/decisions/026-sign-in-links.md). A page load asks the server once whether this
 * browser still holds a session. Failure keeps the sentence for the gate to show.
 */
import { useRouteLoaderData } from 'react-router';
import { couldBeAdminSecret } from '../../../../domain/admin-pages';
import { ADMIN_SECRET_KEY, removeStored } from '../../lib/storage';
import { submitData } from '../../lib/load-data';
import { ADMIN_SESSION, closeAdminSession, openAdminSession, probeAdminSession, type AdminSession } from './admin-api';
import { ADMIN_LAYOUT_ROUTE_ID } from './admin-route-id';
import { adminTexts } from './format';

/**
 * The gate as the layout shows it: locked (with the failure sentence, if any), unlocked, or no gate
 * at all because the address is no admin page (issue 35: it says so, not that a secret is wrong).
 */
export type Gate =
  { status: 'locked'; error: string | null } | { status: 'unlocked'; session: AdminSession; inAddress: boolean } | { status: 'missing' };

/** What the gate dialog shows: a locked gate, or a typed secret being checked. */
export type GateState = Extract<Gate, { status: 'locked' }> | { status: 'verifying' };

const GATE_TEXTS = adminTexts('Authentication failed', 'An error occurred during verification.');

/** Whether this page view knows the browser holds an admin session. */
let signedIn = false;
/** The server was asked once this page view whether the browser holds a session (a probe or a sign-out answers that). */
let asked = false;
/** The last failure sentence, shown until a check succeeds or the operator signs out. */
let lastFailure: string | null = null;
/**
 * The secret from the address that opened the session, until the layout has taken it out of the
 * address; one that failed is not tried again while it stays there.
 */
let provenRouteSecret: string | null = null;
let spentRouteSecret: string | null = null;
/** Loaders of one navigation run together; they share one call. */
let inflight: { key: string; outcome: Promise<boolean> } | null = null;

function once(key: string, run: () => Promise<boolean>): Promise<boolean> {
  if (inflight?.key === key) return inflight.outcome;
  const outcome = run().finally(() => {
    if (inflight?.outcome === outcome) inflight = null;
  });
  inflight = { key, outcome };
  return outcome;
}

/** Sends a secret to open a session; the answer's cookie is the proof from now on. */
function open(candidate: string): Promise<boolean> {
  return once(`secret:${candidate}`, async () => {
    const answer = await submitData(openAdminSession(candidate), GATE_TEXTS);
    asked = true;
    signedIn = answer.ok;
    lastFailure = answer.ok ? null : answer.error;
    return answer.ok;
  });
}

/** Whether the browser still holds a session from earlier (a 401 here is no failure to show). */
function probe(): Promise<boolean> {
  return once('probe', async () => {
    const answer = await probeAdminSession();
    asked = true;
    signedIn = answer.ok;
    return answer.ok;
  });
}

const locked = (): Gate => ({ status: 'locked', error: lastFailure });
const unlocked = (inAddress: boolean): Gate => ({ status: 'unlocked', session: ADMIN_SESSION, inAddress });

/**
 * The gate for the current address. `inAddress`: the secret that opened the session is still in
 * the address, which the layout then takes out (a proven secret should not stay in the address bar
 * or history).
 */
export async function resolveGate(routeSecret: string | undefined): Promise<Gate> {
  // Earlier versions kept the secret in local storage: it does not stay there.
  removeStored(ADMIN_SECRET_KEY);
  if (routeSecret !== undefined && !couldBeAdminSecret(routeSecret)) return { status: 'missing' };
  if (routeSecret !== undefined && routeSecret !== provenRouteSecret && routeSecret !== spentRouteSecret) {
    if (await open(routeSecret)) {
      provenRouteSecret = routeSecret;
      return unlocked(true);
    }
    spentRouteSecret = routeSecret;
    return locked();
  }
  if (signedIn) return unlocked(routeSecret !== undefined && routeSecret === provenRouteSecret);
  if (!asked && (await probe())) return unlocked(false);
  return locked();
}

/** For page loaders: the session, or null while the gate is closed (the page then loads nothing). */
export async function adminSessionFor(params: { secret?: string }): Promise<AdminSession | null> {
  const gate = await resolveGate(params.secret);
  // While the address still holds the secret, the layout redirects; the page loads after that.
  return gate.status === 'unlocked' && !gate.inAddress ? gate.session : null;
}

/** A typed secret; the layout's loader then shows the outcome. */
export async function submitSecret(secret: string): Promise<void> {
  await open(secret);
}

/** Sign out: the server ends the session and clears its cookie. */
export async function lock(): Promise<void> {
  signedIn = false;
  asked = true;
  lastFailure = null;
  inflight = null;
  provenRouteSecret = null;
  // A session that already ended answers 401: signed out all the same.
  await closeAdminSession();
}

/** The session for components (download buttons); null while the gate is closed. */
export function useAdminSession(): AdminSession | null {
  const gate = useRouteLoaderData(ADMIN_LAYOUT_ROUTE_ID) as Gate | undefined;
  return gate?.status === 'unlocked' ? gate.session : null;
}

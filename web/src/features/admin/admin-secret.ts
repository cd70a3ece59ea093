/**
 * The admin gate (docs/product-rules.md, Admin area), as plain functions the admin routes' loaders
 * and action call: a secret from the address (`/admin/<secret>`, `/admin/<page>/<secret>`), the
 * saved one (local storage) or a typed one is verified with one cheap call; success saves it,
 * failure forgets the saved one and keeps the sentence for the gate to show. The verified secret
 * lives here for this page view, so moving between admin pages checks nothing again.
 */
import { useRouteLoaderData } from 'react-router';
import { ADMIN_SECRET_KEY, readStored, removeStored, writeStored } from '../../lib/storage';
import { submitData } from '../../lib/load-data';
import { verifySecret } from './admin-api';
import { ADMIN_LAYOUT_ROUTE_ID } from './admin-route-id';
import { adminTexts } from './format';

/** The gate as the layout shows it: locked (with the failure sentence, if any) or unlocked. */
export type Gate = { status: 'locked'; error: string | null } | { status: 'unlocked'; secret: string; inAddress: boolean };

/** What the gate dialog shows: a gate, or a typed secret being checked. */
export type GateState = Exclude<Gate, { status: 'unlocked' }> | { status: 'verifying' };

const GATE_TEXTS = adminTexts('Authentication failed', 'An error occurred during verification.');

let verified: string | null = null;
/** The last failure sentence, shown until a check succeeds or the operator signs out. */
let lastFailure: string | null = null;
/** A secret from the address that failed is not tried again while it stays there. */
let spentRouteSecret: string | null = null;
/** Loaders of one navigation run together; they share one check of the same secret. */
let inflight: { candidate: string; outcome: Promise<boolean> } | null = null;

function check(candidate: string): Promise<boolean> {
  if (inflight?.candidate === candidate) return inflight.outcome;
  const outcome = submitData(verifySecret(candidate), GATE_TEXTS).then((answer) => {
    if (inflight?.outcome === outcome) inflight = null;
    if (answer.ok) {
      verified = candidate;
      lastFailure = null;
      writeStored(ADMIN_SECRET_KEY, candidate);
      return true;
    }
    // Only this secret is forgotten: another one may have been proven meanwhile.
    if (readStored(ADMIN_SECRET_KEY) === candidate) removeStored(ADMIN_SECRET_KEY);
    if (verified === candidate) verified = null;
    lastFailure = answer.error;
    return false;
  });
  inflight = { candidate, outcome };
  return outcome;
}

const locked = (): Gate => ({ status: 'locked', error: lastFailure });

/**
 * The gate for the current address. `inAddress`: the verified secret is still in the address,
 * which the layout then takes out (a proven secret should not stay in the address bar or history).
 */
export async function resolveGate(routeSecret: string | undefined): Promise<Gate> {
  if (routeSecret !== undefined && routeSecret !== verified && routeSecret !== spentRouteSecret) {
    if (await check(routeSecret)) return { status: 'unlocked', secret: routeSecret, inAddress: true };
    spentRouteSecret = routeSecret;
    return locked();
  }
  if (verified !== null) return { status: 'unlocked', secret: verified, inAddress: routeSecret === verified };
  const saved = readStored(ADMIN_SECRET_KEY);
  if (saved === null) return locked();
  return (await check(saved)) ? { status: 'unlocked', secret: saved, inAddress: routeSecret === saved } : locked();
}

/** For page loaders: the verified secret, or null while the gate is closed (the page then loads nothing). */
export async function adminSecretFor(params: { secret?: string }): Promise<string | null> {
  const gate = await resolveGate(params.secret);
  // While the address still holds the secret, the layout redirects; the page loads after that.
  return gate.status === 'unlocked' && !gate.inAddress ? gate.secret : null;
}

/** A typed secret; the layout's loader then shows the outcome. */
export async function submitSecret(secret: string): Promise<void> {
  await check(secret);
}

/** Sign out: forget the secret here and in storage. */
export function lock(): void {
  verified = null;
  lastFailure = null;
  inflight = null;
  removeStored(ADMIN_SECRET_KEY);
}

/** The verified secret for components (download buttons); null while the gate is closed. */
export function useAdminSecret(): string | null {
  const gate = useRouteLoaderData(ADMIN_LAYOUT_ROUTE_ID) as Gate | undefined;
  return gate?.status === 'unlocked' ? gate.secret : null;
}

import { createContext, useCallback, useContext, useEffect, useRef, useState } from 'react';
import { ADMIN_SECRET_KEY, readStored, removeStored, writeStored } from '../../lib/storage';
import { verifySecret } from './admin-api';

/** docs/product-rules.md, Admin area: locked, then verifying, then unlocked on success. */
export type GateState =
  | { status: 'locked'; error: string | null }
  | { status: 'verifying' }
  | { status: 'unlocked'; secret: string };

/** The verified secret for the pages; null while the gate is closed. */
export const AdminSecretContext = createContext<string | null>(null);

export function useAdminSecret(): string | null {
  return useContext(AdminSecretContext);
}

// Without storage (disabled by a privacy mode) the gate still works for this page view; the
// operator types the secret again next time.
const readSaved = () => readStored(ADMIN_SECRET_KEY);
const forgetSaved = () => removeStored(ADMIN_SECRET_KEY);
const save = (secret: string) => writeStored(ADMIN_SECRET_KEY, secret);

/**
 * The admin gate's state machine. A secret from the route (`routeSecret`) or local storage is
 * verified on load without a click; `submit` verifies a typed one. `onVerified` lets the layout
 * take a route secret out of the address bar once it is proven.
 */
export function useAdminGate(routeSecret: string | undefined, onVerified: (fromRoute: boolean) => void) {
  const initial = routeSecret ?? readSaved();
  const [state, setState] = useState<GateState>(initial ? { status: 'verifying' } : { status: 'locked', error: null });
  // Only the newest check may change the state (a route change can start a second one).
  const latest = useRef(0);
  const onVerifiedRef = useRef(onVerified);
  onVerifiedRef.current = onVerified;

  const verify = useCallback(async (secret: string, fromRoute: boolean) => {
    const ticket = ++latest.current;
    setState({ status: 'verifying' });
    const result = await verifySecret(secret);
    if (ticket !== latest.current) return;
    if (result.ok) {
      save(secret);
      setState({ status: 'unlocked', secret });
      onVerifiedRef.current(fromRoute);
      return;
    }
    forgetSaved();
    const error = result.kind === 'http' ? `Authentication failed: ${result.message}` : 'An error occurred during verification.';
    setState({ status: 'locked', error });
  }, []);

  const unlockedSecret = state.status === 'unlocked' ? state.secret : null;
  useEffect(() => {
    const candidate = routeSecret ?? (unlockedSecret === null ? readSaved() : null);
    if (candidate !== null && candidate !== unlockedSecret) void verify(candidate, routeSecret !== undefined);
    // A running check is abandoned when the component goes away (StrictMode mounts twice).
    return () => {
      latest.current++;
    };
    // Deliberately not keyed on the unlocked secret: only a new route secret starts a new check.
  }, [routeSecret, verify]);

  const submit = useCallback((secret: string) => verify(secret, false), [verify]);
  const lock = useCallback(() => {
    latest.current++;
    forgetSaved();
    setState({ status: 'locked', error: null });
  }, []);

  return { state, submit, lock };
}

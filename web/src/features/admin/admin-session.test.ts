import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const RIGHT = 'right-secret-0123456789';
let stored: Map<string, string>;
/** What the gate asked the stand-in server: `POST <secret>`, `GET` (the session probe), `DELETE`. */
let calls: string[];
/** Whether the stand-in server knows this browser's admin session cookie. */
let hasSession: boolean;

/** A fresh gate module (its state is per page view) over a stand-in server and local storage. */
async function gateModule() {
  vi.resetModules();
  return import('./admin-session');
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, statusText: status === 200 ? 'OK' : 'Unauthorized' });

beforeEach(() => {
  stored = new Map();
  calls = [];
  hasSession = false;
  vi.stubGlobal('window', {
    localStorage: {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => void stored.set(key, value),
      removeItem: (key: string) => void stored.delete(key),
    },
  });
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    expect(url).toBe('/api/admin/session');
    const method = init.method ?? 'GET';
    const secret = (init.headers as Record<string, string> | undefined)?.['x-admin-secret'];
    calls.push(secret === undefined ? method : `${method} ${secret}`);
    if (secret === 'offline-secret-0123456789') throw new TypeError('Failed to fetch');
    if (method === 'POST') {
      hasSession = secret === RIGHT;
      return hasSession ? json(200, { ok: true }) : json(401, { error: 'The admin secret is wrong.' });
    }
    if (method === 'DELETE') hasSession = false;
    return hasSession || method === 'DELETE' ? json(200, { ok: true }) : json(401, { error: 'This browser has no admin session.' });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the admin gate', () => {
  it('without a session: locked, without a sentence, after one probe', async () => {
    const { resolveGate, adminSessionFor } = await gateModule();
    expect(await resolveGate(undefined)).toEqual({ status: 'locked', error: null });
    expect(await adminSessionFor({})).toBeNull();
    expect(calls).toEqual(['GET']);
  });

  it('a session from earlier opens the area on load without typing', async () => {
    hasSession = true;
    const { resolveGate } = await gateModule();
    expect(await resolveGate(undefined)).toEqual({ status: 'unlocked', session: { kind: 'admin-session' }, inAddress: false });
    expect(await resolveGate(undefined)).toMatchObject({ status: 'unlocked' });
    expect(calls).toEqual(['GET']);
  });

  it('sends a secret from the address once for the loaders running together, keeps nothing, and asks for it to leave the address', async () => {
    const { resolveGate, adminSessionFor } = await gateModule();
    const [layout, page] = await Promise.all([resolveGate(RIGHT), adminSessionFor({ secret: RIGHT })]);
    expect(layout).toEqual({ status: 'unlocked', session: { kind: 'admin-session' }, inAddress: true });
    // The page loads nothing until the layout has taken the secret out of the address.
    expect(page).toBeNull();
    expect(calls).toEqual([`POST ${RIGHT}`]);
    expect(stored.size).toBe(0);
    // After the redirect: unlocked, no second call.
    expect(await adminSessionFor({})).toEqual({ kind: 'admin-session' });
    expect(calls).toEqual([`POST ${RIGHT}`]);
  });

  it('drops a secret an earlier version kept in local storage, and never sends it', async () => {
    stored.set('adminSecret', RIGHT);
    const { resolveGate } = await gateModule();
    expect(await resolveGate(undefined)).toEqual({ status: 'locked', error: null });
    expect(stored.has('adminSecret')).toBe(false);
    expect(calls).toEqual(['GET']);
  });

  it('a wrong typed secret keeps the sentence; the right one unlocks', async () => {
    const { resolveGate, submitSecret } = await gateModule();
    await submitSecret('wrong-secret-0123456789');
    expect(await resolveGate(undefined)).toEqual({ status: 'locked', error: 'Authentication failed: The admin secret is wrong.' });
    await submitSecret(RIGHT);
    expect(await resolveGate(undefined)).toMatchObject({ status: 'unlocked', inAddress: false });
    expect(calls).toEqual(['POST wrong-secret-0123456789', `POST ${RIGHT}`]);
  });

  it('says the verification sentence when the call did not get through', async () => {
    const { resolveGate, submitSecret } = await gateModule();
    await submitSecret('offline-secret-0123456789');
    expect(await resolveGate(undefined)).toEqual({ status: 'locked', error: 'An error occurred during verification.' });
  });

  it('does not try a failed address secret again; a typed secret then unlocks', async () => {
    const { resolveGate, submitSecret } = await gateModule();
    expect((await resolveGate('wrong-secret-0123456789')).status).toBe('locked');
    expect((await resolveGate('wrong-secret-0123456789')).status).toBe('locked');
    await submitSecret(RIGHT);
    expect(await resolveGate('wrong-secret-0123456789')).toMatchObject({ status: 'unlocked', inAddress: false });
    expect(calls).toEqual(['POST wrong-secret-0123456789', `POST ${RIGHT}`]);
  });

  it('an address segment too short to be a secret is an unknown page: nothing is sent', async () => {
    const { resolveGate, adminSessionFor } = await gateModule();
    expect(await resolveGate('settings')).toEqual({ status: 'missing' });
    expect(await adminSessionFor({ secret: 'settings' })).toBeNull();
    expect(calls).toEqual([]);
  });

  it('signs out: the server ends the session; locked, nothing shown, no probe again', async () => {
    const { resolveGate, submitSecret, lock } = await gateModule();
    await submitSecret(RIGHT);
    await lock();
    expect(hasSession).toBe(false);
    expect(await resolveGate(undefined)).toEqual({ status: 'locked', error: null });
    expect(calls).toEqual([`POST ${RIGHT}`, 'DELETE']);
  });
});

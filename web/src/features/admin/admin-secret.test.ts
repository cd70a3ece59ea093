import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const RIGHT = 'right-secret';
let stored: Map<string, string>;
let checks: string[];

/** A fresh gate module (its state is per page view) over a stand-in server and local storage. */
async function gateModule() {
  vi.resetModules();
  return import('./admin-secret');
}

beforeEach(() => {
  stored = new Map();
  checks = [];
  vi.stubGlobal('window', {
    localStorage: {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => void stored.set(key, value),
      removeItem: (key: string) => void stored.delete(key),
    },
  });
  vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
    const secret = (init.headers as Record<string, string>)['x-admin-secret'] ?? '';
    checks.push(secret);
    if (secret === 'offline') throw new TypeError('Failed to fetch');
    return secret === RIGHT
      ? new Response('[]', { status: 200 })
      : new Response(JSON.stringify({ error: 'The admin secret is wrong.' }), { status: 401, statusText: 'Unauthorized' });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the admin gate', () => {
  it('is locked without a secret, and checks nothing', async () => {
    const { resolveGate, adminSecretFor } = await gateModule();
    expect(await resolveGate(undefined)).toEqual({ status: 'locked', error: null });
    expect(await adminSecretFor({})).toBeNull();
    expect(checks).toEqual([]);
  });

  it('verifies a secret from the address once for the loaders running together, saves it, and asks for it to leave the address', async () => {
    const { resolveGate, adminSecretFor } = await gateModule();
    const [layout, page] = await Promise.all([resolveGate(RIGHT), adminSecretFor({ secret: RIGHT })]);
    expect(layout).toEqual({ status: 'unlocked', secret: RIGHT, inAddress: true });
    // The page loads nothing until the layout has taken the secret out of the address.
    expect(page).toBeNull();
    expect(checks).toEqual([RIGHT]);
    expect(stored.get('adminSecret')).toBe(RIGHT);
    // After the redirect: unlocked, no second check.
    expect(await adminSecretFor({})).toBe(RIGHT);
    expect(checks).toEqual([RIGHT]);
  });

  it('verifies a saved secret without typing', async () => {
    stored.set('adminSecret', RIGHT);
    const { resolveGate } = await gateModule();
    expect(await resolveGate(undefined)).toEqual({ status: 'unlocked', secret: RIGHT, inAddress: false });
    expect(checks).toEqual([RIGHT]);
  });

  it('forgets a saved secret that is wrong and keeps the sentence', async () => {
    stored.set('adminSecret', 'old-secret');
    const { resolveGate } = await gateModule();
    expect(await resolveGate(undefined)).toEqual({ status: 'locked', error: 'Authentication failed: The admin secret is wrong.' });
    expect(stored.has('adminSecret')).toBe(false);
    // Nothing is saved any more: the sentence stays, nothing is checked again.
    expect(await resolveGate(undefined)).toEqual({ status: 'locked', error: 'Authentication failed: The admin secret is wrong.' });
    expect(checks).toEqual(['old-secret']);
  });

  it('says the verification sentence when the call did not get through', async () => {
    stored.set('adminSecret', 'offline');
    const { resolveGate } = await gateModule();
    expect(await resolveGate(undefined)).toEqual({ status: 'locked', error: 'An error occurred during verification.' });
    expect(stored.has('adminSecret')).toBe(false);
  });

  it('does not try a failed address secret again; a typed secret then unlocks', async () => {
    const { resolveGate, submitSecret } = await gateModule();
    expect((await resolveGate('wrong')).status).toBe('locked');
    await submitSecret(RIGHT);
    expect(await resolveGate('wrong')).toEqual({ status: 'unlocked', secret: RIGHT, inAddress: false });
    expect(checks).toEqual(['wrong', RIGHT]);
  });

  it('signs out: locked, nothing saved, nothing shown', async () => {
    const { resolveGate, submitSecret, lock } = await gateModule();
    await submitSecret(RIGHT);
    lock();
    expect(stored.has('adminSecret')).toBe(false);
    expect(await resolveGate(undefined)).toEqual({ status: 'locked', error: null });
  });
});

/** docs/product-rules.md, Validation and limits: local storage keys. Storage can be unavailable (privacy modes); then nothing is kept. */
export const USER_EMAIL_KEY = 'userEmail';
export const ADMIN_SECRET_KEY = 'adminSecret';

export function readStored(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStored(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch (error) {
    console.warn(`Could not save ${key}:`, error);
  }
}

export function removeStored(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // nothing stored, nothing to remove
  }
}

/**
 * The API origin is a build setting (VITE_API_ORIGIN); by default the app calls its own origin.
 * Every request of the web app builds its URL here.
 */
const origin: string = (import.meta.env.VITE_API_ORIGIN as string | undefined)?.replace(/\/$/, '') ?? '';

export function apiUrl(path: string): string {
  return `${origin}${path}`;
}

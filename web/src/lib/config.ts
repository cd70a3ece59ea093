/**
 * Product name, support links and the voice mode come from GET /api/config: the root route's
 * loader reads them once (app/router.tsx), and every screen takes them from there.
 */
import { useRouteLoaderData } from 'react-router';
import type { PublicConfig } from '../../../contract';
import { FALLBACK_CONFIG, fetchConfig } from './api';
import { dataOr } from './load-data';

/** The id of the route whose loader holds the config. */
export const ROOT_ROUTE_ID = 'root';

/** The root loader: the server's settings, or (logged) the fallback, so the app still works without them. */
export async function loadConfig(): Promise<PublicConfig> {
  const config = await dataOr(fetchConfig(), FALLBACK_CONFIG, 'Could not load the app settings:');
  document.title = `${config.productName} Feedback`;
  return config;
}

export function useConfig(): { config: PublicConfig } {
  const config = useRouteLoaderData(ROOT_ROUTE_ID) as PublicConfig | undefined;
  return { config: config ?? FALLBACK_CONFIG };
}

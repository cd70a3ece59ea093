import type { ComponentType } from 'react';
import type { ActionFunction, LoaderFunction, ShouldRevalidateFunction } from 'react-router';
import { ADMIN_INDEX_PAGE, ADMIN_PAGES, type AdminPageSlug } from '../../../../domain/admin-pages';

/**
 * What an admin page's module exports for the router (React Router's lazy route module): its
 * loader, its action when it changes anything, the screen, and the screen for a failed load.
 */
export interface AdminRouteModule {
  loader: LoaderFunction;
  action?: ActionFunction;
  shouldRevalidate?: ShouldRevalidateFunction;
  Component: ComponentType;
  ErrorBoundary?: ComponentType;
}

/** Each registered admin page's route module (the list and its labels: domain/admin-pages.ts), loaded when visited. */
const MODULES: Record<AdminPageSlug, () => Promise<AdminRouteModule>> = {
  dashboard: () => import('./dashboard-page'),
  events: () => import('./events-page'),
  emails: () => import('./emails-page'),
  feedback: () => import('./feedback-page'),
  'question-sets': () => import('./question-sets/question-sets-page'),
};

export interface AdminPageEntry {
  slug: AdminPageSlug;
  label: string;
  /** Where the menu links: the index page is `/admin` itself. */
  to: string;
  load: () => Promise<AdminRouteModule>;
}

/** The admin area's registry: routes.tsx mounts it, admin-layout.tsx lists it as the menu. */
export const ADMIN_PAGE_ENTRIES: AdminPageEntry[] = ADMIN_PAGES.map(({ slug, label }) => ({
  slug,
  label,
  to: slug === ADMIN_INDEX_PAGE ? '/admin' : `/admin/${slug}`,
  load: MODULES[slug],
}));

export const loadAdminIndexPage = MODULES[ADMIN_INDEX_PAGE];

import type { ComponentType } from 'react';
import { ADMIN_INDEX_PAGE, ADMIN_PAGES, type AdminPageSlug } from '../../../../domain/admin-pages';
import { DashboardPage } from './dashboard-page';
import { EmailsPage } from './emails-page';
import { EventsPage } from './events-page';
import { FeedbackPage } from './feedback-page';
import { QuestionSetsPage } from './question-sets/question-sets-page';

/** Each registered admin page's screen (the list and its labels: domain/admin-pages.ts). */
const COMPONENTS: Record<AdminPageSlug, ComponentType> = {
  dashboard: DashboardPage,
  events: EventsPage,
  emails: EmailsPage,
  feedback: FeedbackPage,
  'question-sets': QuestionSetsPage,
};

export interface AdminPageEntry {
  slug: AdminPageSlug;
  label: string;
  /** Where the menu links: the index page is `/admin` itself. */
  to: string;
  Component: ComponentType;
}

/** The admin area's registry: routes.tsx mounts it, admin-layout.tsx lists it as the menu. */
export const ADMIN_PAGE_ENTRIES: AdminPageEntry[] = ADMIN_PAGES.map(({ slug, label }) => ({
  slug,
  label,
  to: slug === ADMIN_INDEX_PAGE ? '/admin' : `/admin/${slug}`,
  Component: COMPONENTS[slug],
}));

export const ADMIN_INDEX_COMPONENT = COMPONENTS[ADMIN_INDEX_PAGE];

import { Route, Routes } from 'react-router';
import { AdminLayout } from './admin-layout';
import { ADMIN_INDEX_COMPONENT, ADMIN_PAGE_ENTRIES } from './pages';

/**
 * The admin area, mounted by the app router at `/admin/*` (lazy: interviewee screens never load it).
 *
 * Paths, from the page registry (pages.tsx): `/admin` and `/admin/:secret` show the index page
 * (the dashboard); every page has `/admin/<slug>` and `/admin/<slug>/:secret`. A route secret is
 * verified like a saved one, saved on success and then removed from the URL
 * (docs/product-rules.md, "Admin area").
 */
export default function AdminApp() {
  const Index = ADMIN_INDEX_COMPONENT;
  return (
    <Routes>
      <Route element={<AdminLayout />}>
        <Route index element={<Index />} />
        {/* The index page's own secret parameter; the named pages below win over it. */}
        <Route path=":secret" element={<Index />} />
        {ADMIN_PAGE_ENTRIES.map(({ slug, Component }) => [
          <Route key={slug} path={slug} element={<Component />} />,
          <Route key={`${slug}/secret`} path={`${slug}/:secret`} element={<Component />} />,
        ])}
        <Route path="*" element={<p>This admin page does not exist.</p>} />
      </Route>
    </Routes>
  );
}

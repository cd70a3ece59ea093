import { Route, Routes } from 'react-router';
import { AdminLayout } from './admin-layout';
import { DashboardPage } from './dashboard-page';
import { EmailsPage } from './emails-page';
import { EventsPage } from './events-page';
import { FeedbackPage } from './feedback-page';

/**
 * The admin area, mounted by the app router at `/admin/*` (lazy: interviewee screens never load it).
 *
 * Paths (each page also takes the secret as the route parameter `secret`, spec §2):
 *   /admin, /admin/:secret, /admin/dashboard, /admin/dashboard/:secret   Dashboard
 *   /admin/events, /admin/events/:secret                 Recent Events
 *   /admin/emails, /admin/emails/:secret                 Manage Emails
 *   /admin/feedback, /admin/feedback/:secret             User Feedback
 * A route secret is verified like a saved one, saved on success and then removed from the URL.
 */
export default function AdminApp() {
  return (
    <Routes>
      <Route element={<AdminLayout />}>
        <Route index element={<DashboardPage />} />
        {/* The index page's own secret parameter; the named pages above it win over it. */}
        <Route path=":secret" element={<DashboardPage />} />
        <Route path="dashboard" element={<DashboardPage />} />
        <Route path="dashboard/:secret" element={<DashboardPage />} />
        <Route path="events" element={<EventsPage />} />
        <Route path="events/:secret" element={<EventsPage />} />
        <Route path="emails" element={<EmailsPage />} />
        <Route path="emails/:secret" element={<EmailsPage />} />
        <Route path="feedback" element={<FeedbackPage />} />
        <Route path="feedback/:secret" element={<FeedbackPage />} />
        <Route path="*" element={<p>This admin page does not exist.</p>} />
      </Route>
    </Routes>
  );
}

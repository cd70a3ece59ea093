import { useState } from 'react';
import { Form, useLoaderData, useNavigation, type LoaderFunctionArgs } from 'react-router';
import { Button } from '../../components/button';
import { loadData } from '../../lib/load-data';
import { fetchEvents, type AdminEventRow } from './admin-api';
import { adminSessionFor, useAdminSession } from './admin-session';
import { downloadExport } from './csv-exports';
import { EventDetails } from './event-details';
import { eventPagesOf, EVENTS_PAGE_SIZE, loadEventPages } from './events-pages';
import { setLabel } from '../../../../domain/csv-exports';
import { adminTexts, formatDateTime } from './format';
import { AdminLoadError, AdminPageHeader, HeaderRow } from './page-parts';
import { ScrollX } from './scroll-x';

const HEADERS = ['ID', 'User Email', 'Event Type', 'Topic', 'Set Index', 'Timestamp', 'Duration (s)', 'Actions'];
const TEXTS = adminTexts('Failed to fetch events', 'An error occurred while fetching events.');

/** docs/product-rules.md, Admin area: the newest events, as many pages as the address says (`?pages=`). */
export async function loader({ params, request }: LoaderFunctionArgs) {
  const session = await adminSessionFor(params);
  if (session === null) return null;
  const pages = eventPagesOf(new URL(request.url));
  const loaded = await loadData(
    loadEventPages((before) => fetchEvents(session, { limit: EVENTS_PAGE_SIZE, before }), pages),
    TEXTS,
  );
  return { ...loaded, pages };
}

function EventsHeader() {
  const session = useAdminSession();
  return (
    <AdminPageHeader title="Admin - Recent Events">
      {session !== null && (
        // Every rating, not only the pages on show: the server streams the whole export.
        <Button onClick={() => void downloadExport(session, 'ratings')}>Download Ratings</Button>
      )}
    </AdminPageHeader>
  );
}

function EventRow({ event, onDetails }: { event: AdminEventRow; onDetails: () => void }) {
  const badge = event.eventType === 'START' ? 'bg-green-100 text-green-800' : 'bg-blue-100 text-blue-800';
  return (
    <tr className="border-b border-gray-100">
      <td className="px-3 py-2">{event.id}</td>
      <td className="px-3 py-2">{event.userEmail ?? ''}</td>
      <td className="px-3 py-2">
        <span className={`rounded px-2 py-0.5 text-xs font-semibold ${badge}`}>{event.eventType}</span>
      </td>
      <td className="px-3 py-2">{event.topic ?? ''}</td>
      <td className="px-3 py-2">
        {event.questionSetIndex ?? ''}
        {/* Beside the stored index (from 0): the set as candidates know it. */}
        {event.questionSetIndex !== null && (
          <small className="block text-xs whitespace-nowrap text-gray-600">{setLabel(event.questionSetIndex + 1, event.topic)}</small>
        )}
      </td>
      <td className="px-3 py-2">{formatDateTime(event.eventTimestamp)}</td>
      <td className="px-3 py-2">{event.durationSeconds ?? ''}</td>
      <td className="px-3 py-2">
        <Button size="sm" onClick={onDetails}>
          Details
        </Button>
      </td>
    </tr>
  );
}

/** The next page is a GET form: the address gains `?pages=n+1`, and its loader fetches the older page. */
function LoadOlder({ pages }: { pages: number }) {
  const navigation = useNavigation();
  if (navigation.state === 'loading' && navigation.location.pathname.startsWith('/admin/events')) {
    return <p className="p-3 text-gray-500">Loading...</p>;
  }
  return (
    <Form preventScrollReset className="mt-4">
      <input type="hidden" name="pages" value={pages + 1} />
      <Button type="submit" variant="secondary">
        Load older events
      </Button>
    </Form>
  );
}

export function Component() {
  const data = useLoaderData<typeof loader>();
  const session = useAdminSession();
  const [selected, setSelected] = useState<AdminEventRow | null>(null);
  if (data === null) return <EventsHeader />;
  return (
    <section>
      <EventsHeader />
      <ScrollX label="Events">
        <table className="w-full border-collapse bg-white text-left text-sm">
          <HeaderRow headers={HEADERS} />
          <tbody>
            {data.events.map((event) => (
              <EventRow key={event.id} event={event} onDetails={() => setSelected(event)} />
            ))}
          </tbody>
        </table>
      </ScrollX>
      {data.events.length === 0 && <p className="p-3 text-gray-500">No events yet.</p>}
      {data.hasMore && <LoadOlder pages={data.pages} />}
      {selected && session !== null && (
        <EventDetails key={selected.id} row={selected} session={session} onClose={() => setSelected(null)} />
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <AdminLoadError header={<EventsHeader />} />;
}

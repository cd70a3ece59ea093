import { useCallback, useEffect, useState } from 'react';
import { fetchEvents, type AdminEvent } from './admin-api';
import { useAdminSecret } from './admin-secret';
import { downloadExport } from './csv-exports';
import { EventDetails } from './event-details';
import { failureText, formatDateTime } from './format';
import { AdminError, AdminPageHeader } from './page-parts';

/** Events per request; older pages are fetched with the `before` cursor. */
export const EVENTS_PAGE_SIZE = 50;

const HEADERS = ['ID', 'User Email', 'Event Type', 'Topic', 'Set Index', 'Timestamp', 'Duration (s)', 'Actions'];

export function EventsPage() {
  const secret = useAdminSecret();
  const [events, setEvents] = useState<AdminEvent[]>([]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [selected, setSelected] = useState<AdminEvent | null>(null);

  const load = useCallback(
    async (key: string, before: number | undefined, isLive: () => boolean) => {
      setLoading(true);
      const result = await fetchEvents(key, { limit: EVENTS_PAGE_SIZE, before });
      if (!isLive()) return;
      setLoading(false);
      if (!result.ok) {
        setError(failureText(result, 'Failed to fetch events', 'An error occurred while fetching events.'));
        return;
      }
      setError(null);
      setEvents((shown) => (before === undefined ? result.data : [...shown, ...result.data]));
      // A short page means the oldest event has been reached.
      setHasMore(result.data.length === EVENTS_PAGE_SIZE);
    },
    [],
  );

  useEffect(() => {
    if (secret === null) return;
    let live = true;
    void load(secret, undefined, () => live);
    return () => {
      live = false;
    };
  }, [secret, load]);

  // Every rating, not only the loaded pages: the server streams the whole export.
  const downloadRatings = () => {
    if (secret !== null) void downloadExport(secret, 'ratings');
  };

  const loadOlder = () => {
    const last = events.at(-1);
    if (secret !== null && last) void load(secret, last.id, () => true);
  };

  return (
    <section>
      <AdminPageHeader title="Admin - Recent Events">
        {secret !== null && (
          <button type="button" onClick={downloadRatings} className="rounded bg-green-700 px-4 py-2 font-medium text-white hover:bg-green-800">
            Download Ratings
          </button>
        )}
      </AdminPageHeader>
      <AdminError error={error} />
      {secret !== null && (
        <div className="overflow-x-auto">
          <table className="w-full border-collapse bg-white text-left text-sm">
            <thead>
              <tr>
                {HEADERS.map((header) => (
                  <th key={header} scope="col" className="border-b border-gray-200 px-3 py-2 font-semibold">
                    {header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {events.map((event) => (
                <tr key={event.id} className="border-b border-gray-100">
                  <td className="px-3 py-2">{event.id}</td>
                  <td className="px-3 py-2">{event.userEmail ?? ''}</td>
                  <td className="px-3 py-2">
                    <span
                      className={`rounded px-2 py-0.5 text-xs font-semibold ${
                        event.eventType === 'START' ? 'bg-green-100 text-green-800' : 'bg-blue-100 text-blue-800'
                      }`}
                    >
                      {event.eventType}
                    </span>
                  </td>
                  <td className="px-3 py-2">{event.topic ?? ''}</td>
                  <td className="px-3 py-2">{event.questionSetIndex ?? ''}</td>
                  <td className="px-3 py-2">{formatDateTime(event.eventTimestamp)}</td>
                  <td className="px-3 py-2">{event.durationSeconds ?? ''}</td>
                  <td className="px-3 py-2">
                    <button type="button" onClick={() => setSelected(event)} className="rounded bg-blue-600 px-3 py-1 text-white hover:bg-blue-700">
                      Details
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {loading && <p className="p-3 text-gray-500">Loading...</p>}
          {!loading && events.length === 0 && error === null && <p className="p-3 text-gray-500">No events yet.</p>}
          {!loading && hasMore && (
            <button type="button" onClick={loadOlder} className="mt-4 rounded bg-gray-200 px-4 py-2 hover:bg-gray-300">
              Load older events
            </button>
          )}
        </div>
      )}
      {selected && <EventDetails event={selected} onClose={() => setSelected(null)} />}
    </section>
  );
}

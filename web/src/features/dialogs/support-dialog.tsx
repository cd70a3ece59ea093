import type { PublicConfig } from '../../../../contract';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';

const rowClass =
  'flex items-center justify-between gap-3 rounded-xl border border-slate-200 px-4 py-3 text-sm font-medium text-slate-800 hover:border-indigo-300 hover:bg-indigo-50 focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-indigo-400/60';

/** Spec §2: 'Need some help?' with the chat group and the two founders' links. */
export function SupportDialog({ config, onClose }: { config: PublicConfig; onClose: () => void }) {
  return (
    <Dialog title="Need some help?" onClose={onClose} size="sm" testId="support-dialog">
      <p className="text-sm text-slate-600">We are happy to help. Ask the community or write to one of the founders directly.</p>
      <ul className="mt-4 space-y-2">
        {config.supportChatUrl && (
          <li>
            <a href={config.supportChatUrl} target="_blank" rel="noopener noreferrer" className={rowClass}>
              <span>Join our chat group</span>
              <span aria-hidden="true">💬</span>
            </a>
          </li>
        )}
        {config.supportContacts.map((contact) => (
          <li key={contact.url}>
            <a href={contact.url} target="_blank" rel="noopener noreferrer" className={rowClass}>
              <span>Contact {contact.name}</span>
              <span aria-hidden="true">↗</span>
            </a>
          </li>
        ))}
      </ul>
      <div className="mt-5 flex justify-end">
        <Button onClick={onClose}>Got it!</Button>
      </div>
    </Dialog>
  );
}

import type { PublicConfig } from '../../../contract';
import { Button } from './button';
import { Dialog } from './dialog';

const rowClass =
  'flex items-center justify-between gap-3 rounded-xl border border-slate-200 px-4 py-3 text-sm font-medium text-slate-800 hover:border-indigo-300 hover:bg-indigo-50 focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-indigo-400/60';

/** The sentence both dialogs show when the operator set no support links (no dead or foreign links). */
export const SUPPORT_NOT_SET_UP = 'Support is not set up yet.';

export function supportIsSetUp(config: PublicConfig): boolean {
  return config.supportChatUrl !== '' || config.supportContacts.length > 0;
}

/** docs/product-rules.md, Screens and routes: 'Need some help?' with the chat group and the contacts' links. */
export function SupportDialog({ config, onClose }: { config: PublicConfig; onClose: () => void }) {
  return (
    <Dialog title="Need some help?" onClose={onClose} size="sm" testId="support-dialog">
      {supportIsSetUp(config) ? (
        <p className="text-sm text-slate-600">We are happy to help. Ask the community or write to one of us directly.</p>
      ) : (
        <p className="text-sm text-slate-600">{SUPPORT_NOT_SET_UP} The people who run this site have not added a way to reach them.</p>
      )}
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

import { Fragment } from 'react';
import type { PublicConfig } from '../../../contract';

const linkClass = 'font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900';

/** Who runs the site, named when the operator configured no way to reach them (no dead or made-up links). */
export const OPERATOR_NAME = 'the operator of this site';

/** The founders' contact links joined with "or"; the chat group when none are configured; the operator when neither is. */
export function FounderLinks({ config }: { config: PublicConfig }) {
  const contacts = config.supportContacts;
  if (contacts.length === 0) return config.supportChatUrl ? <ChatGroupLink config={config} /> : <span>{OPERATOR_NAME}</span>;
  return (
    <>
      {contacts.map((contact, i) => (
        <Fragment key={contact.url}>
          {i > 0 && (i === contacts.length - 1 ? ' or ' : ', ')}
          <a href={contact.url} target="_blank" rel="noopener noreferrer" className={linkClass}>
            {contact.name}
          </a>
        </Fragment>
      ))}
    </>
  );
}

export function ChatGroupLink({ config, children = 'our chat group' }: { config: PublicConfig; children?: string }) {
  if (!config.supportChatUrl) return <span>{children}</span>;
  return (
    <a href={config.supportChatUrl} target="_blank" rel="noopener noreferrer" className={linkClass}>
      {children}
    </a>
  );
}

import type { PublicConfig } from '../../../../contract';
import { FounderLinks } from '../../components/contact-links';

/**
 * docs/product-rules.md, Credits: what the email dialog says first after the token call answered
 * 402. Only a session's start gets that answer, so the notice (with the contact links) travels in
 * a lazy chunk and the first screen does without it (docs/first-screen.md).
 */
export function OutOfTokensNotice({ config }: { config: PublicConfig }) {
  return (
    <p role="alert" className="rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950">
      You have run out of tokens. Please contact <FounderLinks config={config} /> to get more credits.
    </p>
  );
}

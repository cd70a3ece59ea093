import type { PublicConfig } from '../../../../contract';
import { FounderLinks } from '../../components/contact-links';

/**
 * docs/product-rules.md, Credits: what the email dialog says first after the token call answered
 * 402. Only a session's start gets that answer, so the notice (with the contact links) travels in
 * a lazy chunk and the first screen does without it (docs/first-screen.md).
 */
export function OutOfTokensNotice({ config, email }: { config: PublicConfig; email: string | null }) {
  return (
    <div className="space-y-2 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950">
      <p role="alert">
        You have run out of tokens. Please contact <FounderLinks config={config} /> to get more credits.
      </p>
      {email && (
        <p data-testid="out-of-credits-account">
          You are still signed in as <strong className="font-semibold break-all">{email}</strong>, but this account has no interviews left.
        </p>
      )}
    </div>
  );
}

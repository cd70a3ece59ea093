import type { PublicConfig } from '../../../../contract';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { ChatGroupLink, FounderLinks } from '../../components/contact-links';
import { SUPPORT_NOT_SET_UP, supportIsSetUp } from '../../components/support-dialog';

/** docs/product-rules.md, Topic tiles: 'Upgrade to Pro', reach out via the chat group or the two contacts. */
export function UpgradeDialog({ config, onClose }: { config: PublicConfig; onClose: () => void }) {
  return (
    <Dialog title="Upgrade to Pro" onClose={onClose} size="sm" testId="upgrade-dialog">
      {supportIsSetUp(config) ? (
        <p className="text-sm leading-relaxed text-slate-700">
          <span aria-hidden="true">🔒 </span>This topic is part of Pro. To upgrade, please reach out via <ChatGroupLink config={config} />
          {config.supportContacts.length > 0 && (
            <>
              {' '}
              or contact <FounderLinks config={config} />
            </>
          )}
          .
        </p>
      ) : (
        <p className="text-sm leading-relaxed text-slate-700">
          <span aria-hidden="true">🔒 </span>This topic is part of Pro. {SUPPORT_NOT_SET_UP} Please ask the people who run this site how to
          upgrade.
        </p>
      )}
      <div className="mt-6 flex justify-end">
        <Button onClick={onClose}>Got it!</Button>
      </div>
    </Dialog>
  );
}

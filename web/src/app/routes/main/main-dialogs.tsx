import { Suspense } from 'react';
import type { PublicConfig, QuestionSet } from '../../../../../contract';
import type { AccountData } from '../../../features/account/account-session';
import { LoginDialog } from '../../../features/account/login-dialog';
import { SigninLinkDialog } from '../../../features/account/signin-link-dialog';
import { LaterDialog, OutOfTokensNotice } from './lazy-parts';

export type DialogName = 'email' | 'welcome' | 'topics' | 'support';

export interface MainDialogsProps {
  dialog: DialogName | null;
  config: PublicConfig;
  data: AccountData;
  selected: QuestionSet | null;
  outOfTokens: boolean;
  onLoggedIn: (isNewUser: boolean) => void;
  onSelect: (set: QuestionSet) => void;
  onClose: () => void;
}

/** The one open dialog of the main screen; each belongs to its feature (account, topics) or is shared (support). */
export function MainDialogs({ dialog, config, data, selected, outOfTokens, onLoggedIn, onSelect, onClose }: MainDialogsProps) {
  const { account } = data;
  const notice = outOfTokens && (
    <Suspense fallback={null}>
      <OutOfTokensNotice config={config} email={account?.email ?? null} />
    </Suspense>
  );
  // A visitor must enter an email (docs/product-rules.md, Login and identity).
  const close = account ? onClose : undefined;
  if (dialog === 'email' && config.signin === 'link')
    return <SigninLinkDialog initialEmail={account?.email ?? ''} loaderError={data.loginError} notice={notice} onClose={close} />;
  if (dialog === 'email')
    return (
      <LoginDialog
        initialEmail={account?.email ?? ''}
        loaderError={data.loginError}
        notice={notice}
        onLoggedIn={onLoggedIn}
        onClose={close}
      />
    );
  if (dialog === null) return null;
  return (
    <Suspense fallback={null}>
      <LaterDialog dialog={dialog} config={config} account={account} selected={selected} onSelect={onSelect} onClose={onClose} />
    </Suspense>
  );
}

import { useId } from 'react';
import type { LiveSession } from '../../../../contract';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { LIVE_SESSION_TITLE, liveSessionText } from './reconnect-texts';

export interface LiveSessionChoiceProps {
  live: LiveSession;
  onContinue: () => void;
  onEnd: () => void;
}

/**
 * docs/product-rules.md, Session lifecycle (Leaving and coming back): an interview an earlier page
 * left open (a reload, a closed tab, another tab). One choice: continue it in the same session (no
 * credit), or end it and get feedback on what was said. It must be answered: no Escape, no backdrop.
 */
export function LiveSessionChoice({ live, onContinue, onEnd }: LiveSessionChoiceProps) {
  const textId = useId();
  const answers = live.transcript.filter((entry) => entry.role === 'interviewee').length;
  return (
    <Dialog title={LIVE_SESSION_TITLE} size="sm" describedBy={textId} testId="live-session-choice">
      <p id={textId} className="text-sm text-slate-700">
        {liveSessionText(live.topic, answers, live.canContinue)}
      </p>
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        {live.canContinue && (
          <Button onClick={onContinue} data-autofocus>
            Continue interview
          </Button>
        )}
        <Button variant="secondary" onClick={onEnd} {...(live.canContinue ? {} : { 'data-autofocus': true })}>
          End and get feedback
        </Button>
      </div>
    </Dialog>
  );
}

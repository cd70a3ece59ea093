import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { TYPED_START_STEP } from '../../lib/speech-support';

/** docs/product-rules.md, Login and identity: how it works, step by step. */
export const HOW_IT_WORKS_STEPS = [
  'The interviewer asks one question at a time.',
  'Answer as you would in a real interview: think aloud and give examples.',
  'Follow-up questions may come when an answer needs more depth.',
  'You get written feedback on your answers at the end.',
  'Press Start Session to begin. Your microphone is used so the interviewer can hear you.',
  'Press Stop Session when you are done to get your feedback.',
] as const;

/** The steps for this browser: one that cannot recognise speech is told before a credit is spent that answers are typed. */
export function howItWorksSteps(typed: boolean): readonly string[] {
  return typed ? HOW_IT_WORKS_STEPS.map((step, i) => (i === START_STEP ? TYPED_START_STEP : step)) : HOW_IT_WORKS_STEPS;
}
const START_STEP = 4;

export function WelcomeDialog({ productName, typed, onClose }: { productName: string; typed: boolean; onClose: () => void }) {
  return (
    <Dialog title={`Welcome to ${productName} Feedback!`} onClose={onClose} testId="welcome-dialog">
      <p className="text-sm text-slate-600">Practise a spoken interview with an AI interviewer. Here is how it works:</p>
      <ol className="mt-4 space-y-3">
        {howItWorksSteps(typed).map((step, i) => (
          <li key={step} className="flex gap-3 text-sm text-slate-800">
            <span
              aria-hidden="true"
              className="flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-indigo-100 text-xs font-bold text-indigo-800"
            >
              {i + 1}
            </span>
            <span className="pt-0.5">{step}</span>
          </li>
        ))}
      </ol>
      <div className="mt-6 flex justify-end">
        <Button onClick={onClose} data-autofocus>
          Got it!
        </Button>
      </div>
    </Dialog>
  );
}

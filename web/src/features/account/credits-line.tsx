import type { Credits } from '../../../../contract';

const interviews = (n: number) => `${n} ${n === 1 ? 'interview' : 'interviews'}`;

/** docs/product-rules.md, Credits: how many interviews are left before one is started, and that Pro has more. */
export function creditsText(credits: Credits): string {
  const left = credits.left === 0 ? 'You have no interviews left.' : `You have ${interviews(credits.left)} left.`;
  return credits.proLimit === null ? left : `${left} Pro accounts get ${interviews(credits.proLimit)}.`;
}

export function CreditsLine({ credits }: { credits: Credits }) {
  return (
    <p className="text-center text-sm text-slate-700" data-testid="credits">
      {creditsText(credits)}
    </p>
  );
}

/** docs/product-rules.md, Session lifecycle: the last three interviewer messages as stacked cards, the newest in front. */
export function MessageCards({ messages }: { messages: string[] }) {
  const newestFirst = [...messages].reverse();
  return (
    <ol aria-label="Interviewer messages" className="flex flex-col gap-3">
      {newestFirst.map((text, i) => (
        <li
          key={`${messages.length - i}-${text}`}
          data-testid="message-card"
          className={[
            'rounded-2xl border bg-white px-5 py-4 shadow-sm transition',
            i === 0 ? 'border-indigo-200 text-base text-slate-900 shadow-md' : 'border-slate-200 text-sm text-slate-700',
            i === 1 ? 'mx-2 opacity-90 sm:mx-4' : '',
            i === 2 ? 'mx-4 opacity-75 sm:mx-8' : '',
          ].join(' ')}
        >
          <span className="sr-only">{i === 0 ? 'Latest message: ' : 'Earlier message: '}</span>
          {text}
        </li>
      ))}
    </ol>
  );
}

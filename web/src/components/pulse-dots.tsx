/** Three pulsing dots: "still working". */
export function PulseDots({ label = 'Loading' }: { label?: string }) {
  return (
    <span role="status" aria-label={label} className="inline-flex items-center gap-1.5" data-testid="pulse-dots">
      {[0, 150, 300].map((delay) => (
        <span key={delay} className="h-2.5 w-2.5 animate-pulse rounded-full bg-indigo-500" style={{ animationDelay: `${delay}ms` }} />
      ))}
    </span>
  );
}

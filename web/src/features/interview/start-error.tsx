/** The sentence of a failed start, next to the start button; the live region is always present so screen readers announce it. */
export function StartError({ text }: { text: string | null }) {
  return (
    <p aria-live="polite" data-testid="start-error" className={text ? 'text-center text-sm text-rose-800' : 'sr-only'}>
      {text ?? ''}
    </p>
  );
}

import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Button } from '../../components/button';

/**
 * Typed answers for the browser-speech mode: Enter sends, Shift+Enter makes a new line. The unsent
 * text is handed to `onDraft` as it changes and comes back as `initial` (docs/product-rules.md,
 * Session lifecycle, Leaving and coming back: a reload and Continue keep it).
 */
export function TypedAnswer({
  onSend,
  initial = '',
  onDraft,
}: {
  onSend: (text: string) => boolean;
  initial?: string;
  onDraft?: (text: string) => void;
}) {
  const [text, setText] = useState(initial);
  const id = useId();
  const send = (event?: FormEvent) => {
    event?.preventDefault();
    if (onSend(text)) setText('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) send(event);
  };
  return (
    <form onSubmit={send} className="flex w-full items-end gap-2">
      <div className="min-w-0 flex-1">
        <label htmlFor={id} className="mb-1 block text-xs font-semibold text-slate-700">
          Type your answer
        </label>
        <textarea
          id={id}
          rows={1}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            onDraft?.(event.target.value);
          }}
          onKeyDown={onKeyDown}
          placeholder="Type here and press Enter"
          className="block max-h-40 min-h-11 w-full resize-y rounded-xl border border-slate-300 px-3.5 py-2.5 text-base text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-indigo-600 focus:outline-none focus:ring-4 focus:ring-indigo-200"
        />
      </div>
      <Button type="submit" disabled={text.trim() === ''}>
        Send
      </Button>
    </form>
  );
}

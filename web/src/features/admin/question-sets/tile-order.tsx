import { useEffect, useRef, useState } from 'react';
import type { AdminQuestionSet } from '../admin-api';
import { count } from '../../../../../domain/plural';

const MOVE =
  'rounded border border-gray-300 bg-white px-2 text-sm text-gray-800 hover:bg-gray-50 disabled:text-gray-400 focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-indigo-400/60';

/**
 * The sets in tile order (sets unlock by index, one after another); archived ones greyed. Each
 * active set moves up or down one place with its own buttons (keyboard: Tab to one, Enter or
 * Space; focus stays on it, so pressing again keeps moving the set); the server renumbers.
 */
export function TileOrder({
  sets,
  selected,
  busy,
  onSelect,
  onMove,
}: {
  sets: AdminQuestionSet[];
  selected: number | null;
  busy: boolean;
  onSelect: (set: AdminQuestionSet) => void;
  onMove: (set: AdminQuestionSet, index: number) => void;
}) {
  const last = sets.filter((s) => !s.archivedAt).length;
  const list = useRef<HTMLOListElement>(null);
  // After a move the set's button keeps the focus; at the top or bottom (now disabled) the other one takes it.
  const [moved, setMoved] = useState<{ id: number; up: boolean } | null>(null);
  useEffect(() => {
    if (!moved || busy) return;
    const button = (up: boolean) => list.current?.querySelector<HTMLButtonElement>(`[data-move="${moved.id}-${up ? 'up' : 'down'}"]`);
    const target = button(moved.up);
    (target && !target.disabled ? target : button(!moved.up))?.focus();
  }, [moved, busy, sets]);
  const move = (set: AdminQuestionSet, up: boolean) => {
    if (busy) return;
    setMoved({ id: set.id, up });
    onMove(set, up ? set.index - 1 : set.index + 1);
  };
  return (
    <ol ref={list} aria-label="Tile order" className="flex flex-col gap-1">
      {sets.map((set) => (
        <li key={set.id} className="flex items-stretch gap-1">
          <button
            type="button"
            onClick={() => onSelect(set)}
            aria-current={selected === set.id ? 'true' : undefined}
            className={`min-w-0 grow rounded border px-3 py-2 text-left text-sm ${selected === set.id ? 'border-blue-700 bg-blue-50' : 'border-gray-200 bg-white hover:bg-gray-50'} ${set.archivedAt ? 'text-gray-500' : ''}`}
          >
            <span className="font-semibold">{set.archivedAt ? 'Archived' : `Set ${set.index}`}</span> · {set.name}
            <span className="block text-xs text-gray-600">
              {count(set.questions.length, 'question')} · {count(set.ratings, 'rating')}
              {set.isPremium ? ' · Premium' : ''}
              {set.requiresFeedback ? ' · Feedback first' : ''}
              {set.editedAt ? ' · edited here' : ''}
            </span>
          </button>
          {!set.archivedAt && (
            <span className="flex flex-col gap-1">
              <button
                type="button"
                data-move={`${set.id}-up`}
                className={MOVE}
                disabled={set.index <= 1}
                onClick={() => move(set, true)}
                aria-label={`Move "${set.name}" (set ${set.index}) up`}
              >
                <span aria-hidden="true">↑</span>
              </button>
              <button
                type="button"
                data-move={`${set.id}-down`}
                className={MOVE}
                disabled={set.index >= last}
                onClick={() => move(set, false)}
                aria-label={`Move "${set.name}" (set ${set.index}) down`}
              >
                <span aria-hidden="true">↓</span>
              </button>
            </span>
          )}
        </li>
      ))}
    </ol>
  );
}

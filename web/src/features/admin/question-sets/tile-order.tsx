import type { AdminQuestionSet } from '../admin-api';

/** The sets in tile order (sets unlock by index, one after another); archived ones greyed. */
export function TileOrder({ sets, selected, onSelect }: { sets: AdminQuestionSet[]; selected: number | null; onSelect: (set: AdminQuestionSet) => void }) {
  return (
    <ol aria-label="Tile order" className="flex flex-col gap-1">
      {sets.map((set) => (
        <li key={set.id}>
          <button
            type="button"
            onClick={() => onSelect(set)}
            aria-current={selected === set.id ? 'true' : undefined}
            className={`w-full rounded border px-3 py-2 text-left text-sm ${selected === set.id ? 'border-blue-700 bg-blue-50' : 'border-gray-200 bg-white hover:bg-gray-50'} ${set.archivedAt ? 'text-gray-500' : ''}`}
          >
            <span className="font-semibold">{set.archivedAt ? 'Archived' : `${set.index}.`}</span> {set.name}
            <span className="block text-xs text-gray-600">
              {set.questions.length} questions · {set.ratings} ratings{set.isPremium ? ' · Premium' : ''}
              {set.requiresFeedback ? ' · Feedback first' : ''}
              {set.editedAt ? ' · edited here' : ''}
            </span>
          </button>
        </li>
      ))}
    </ol>
  );
}

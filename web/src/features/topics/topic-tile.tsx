import { tileState, type TileSet, type TileUser } from '../../../../domain/tiles';

export interface TopicTileProps {
  set: TileSet & { id: number };
  user: TileUser;
  /** The set's place among the sets of its topic, said when the topic has more than one ("JavaScript", level 2 of 2). */
  level?: { level: number; levels: number };
  selected?: boolean;
  onClick: () => void;
}

/** docs/product-rules.md, Topic tiles: name, ✅ when completed, 🔒/🚀/💬 with their hints, a pulsing dot on the next set. */
export function TopicTile({ set, user, level, selected = false, onClick }: TopicTileProps) {
  const state = tileState(set, user);
  const locked = state.action !== 'select';
  return (
    <button
      type="button"
      onClick={() => {
        if (state.action !== 'none') onClick();
      }}
      aria-disabled={state.action === 'none' ? true : undefined}
      aria-current={selected ? 'true' : undefined}
      data-testid={`tile-${set.index}`}
      data-action={state.action}
      className={[
        'group relative flex w-full items-center gap-3 rounded-2xl border px-4 py-3.5 text-left transition',
        'focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-indigo-400/60',
        selected
          ? 'border-indigo-500 bg-indigo-50 ring-1 ring-indigo-500'
          : 'border-slate-200 bg-white hover:border-indigo-300 hover:shadow-sm',
        state.action === 'none' ? 'cursor-not-allowed bg-slate-50' : '',
      ].join(' ')}
    >
      <span
        aria-hidden="true"
        className={`flex h-10 w-10 shrink-0 items-center justify-center rounded-xl text-sm font-bold ${locked ? 'bg-slate-100 text-slate-600' : 'bg-indigo-100 text-indigo-800'}`}
      >
        {set.index}
      </span>
      <span className="min-w-0 flex-1">
        <span className="flex min-w-0 items-center gap-1.5">
          <span className={`truncate font-semibold ${state.action === 'none' ? 'text-slate-600' : 'text-slate-900'}`}>{set.name}</span>
          {state.completed && (
            <span role="img" aria-label="Completed">
              ✅
            </span>
          )}
        </span>
        <span className="mt-0.5 block text-xs text-slate-600">
          Question set {set.index}
          {level && level.levels > 1 && ` · Level ${level.level} of ${level.levels}`}
          {state.hint && (
            <>
              {' · '}
              <span className="font-medium text-slate-700">{state.hint}</span>
            </>
          )}
        </span>
      </span>
      {state.icon && (
        <span role="img" aria-label={state.hint ?? undefined} className="text-lg">
          {state.icon}
        </span>
      )}
      {state.nextAvailable && (
        <span className="relative flex h-3 w-3 shrink-0" role="img" aria-label="Next available" data-testid="next-dot">
          <span className="absolute inline-flex h-full w-full animate-ping rounded-full bg-blue-400 opacity-75" />
          <span className="relative inline-flex h-3 w-3 rounded-full bg-blue-600" />
        </span>
      )}
    </button>
  );
}

import type { TileSet, TileUser } from '../../../../domain/tiles';
import { TopicTile } from './topic-tile';

/** docs/product-rules.md, Topic tiles: sample tiles for a free user, a pro user and a new user. */
const SAMPLE_SETS: (TileSet & { id: number })[] = [
  { id: 1, name: 'JavaScript Fundamentals', index: 1, isPremium: false, requiresFeedback: false },
  { id: 2, name: 'React Basics', index: 2, isPremium: false, requiresFeedback: false },
  { id: 3, name: 'React Basics', index: 3, isPremium: false, requiresFeedback: true },
  { id: 4, name: 'System Design', index: 4, isPremium: true, requiresFeedback: false },
  { id: 5, name: 'TypeScript Deep Dive', index: 5, isPremium: false, requiresFeedback: false },
];

const SCENARIOS: { title: string; description: string; user: TileUser }[] = [
  {
    title: 'Free user',
    description: 'Completed sets 1 and 2, no feedback given yet.',
    user: {
      subscription: { type: 'free', status: 'active' },
      topicLevels: { 'JavaScript Fundamentals': 1, 'React Basics': 2 },
      topicFeedback: {},
    },
  },
  {
    title: 'Pro user',
    description: 'Active Pro, completed sets 1 to 3 and gave feedback on React Basics.',
    user: {
      subscription: { type: 'pro', status: 'active' },
      topicLevels: { 'JavaScript Fundamentals': 1, 'React Basics': 3 },
      topicFeedback: { 'React Basics': true },
    },
  },
  {
    title: 'New user',
    description: 'Nothing completed yet.',
    user: { subscription: { type: 'free', status: 'active' }, topicLevels: {}, topicFeedback: {} },
  },
];

export default function TileTestPage() {
  return (
    <main className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
      <h1 className="text-2xl font-bold text-slate-900">Topic tile scenarios</h1>
      <p className="mt-1 text-sm text-slate-600">The same five question sets as three different users see them.</p>
      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        {SCENARIOS.map((scenario) => (
          <section
            key={scenario.title}
            aria-labelledby={`scenario-${scenario.title.replace(/\s+/g, '-').toLowerCase()}`}
            className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
          >
            <h2 id={`scenario-${scenario.title.replace(/\s+/g, '-').toLowerCase()}`} className="text-lg font-semibold text-slate-900">
              {scenario.title}
            </h2>
            <p className="mb-3 text-xs text-slate-600">{scenario.description}</p>
            <ul className="space-y-2">
              {SAMPLE_SETS.map((set) => (
                <li key={set.id}>
                  <TopicTile set={set} user={scenario.user} onClick={() => console.info(`Clicked ${set.name} (${set.index})`)} />
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </main>
  );
}

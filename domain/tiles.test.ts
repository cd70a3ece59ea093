import { describe, expect, it } from 'vitest';
import { highestCompletedLevel, isActivePro, sessionRefusal, tileState, type TileSet, type TileUser } from './tiles';
import { scoreColour } from './score';

const free: TileUser = { subscription: { type: 'free', status: 'active' }, topicLevels: {}, topicFeedback: {} };
const pro: TileUser = { ...free, subscription: { type: 'pro', status: 'active' } };
const set = (over: Partial<TileSet>): TileSet => ({ name: 'React', index: 1, isPremium: false, requiresFeedback: false, ...over });

describe('tile rules (docs/product-rules.md, Topic tiles)', () => {
  it('treats only an active pro subscription as pro', () => {
    expect(isActivePro({ type: 'pro', status: 'active' })).toBe(true);
    expect(isActivePro({ type: 'pro', status: 'inactive' })).toBe(false);
    expect(isActivePro({ type: 'free', status: 'active' })).toBe(false);
    expect(isActivePro(null)).toBe(false);
  });

  it('takes the highest completed level over all topics, at least 0', () => {
    expect(highestCompletedLevel({})).toBe(0);
    expect(highestCompletedLevel({ a: 2, b: 5, c: 1 })).toBe(5);
  });

  // Every combination of premium x pro x progress x feedback.
  for (const isPremium of [false, true])
    for (const userIsPro of [false, true])
      for (const index of [1, 2, 3])
        for (const requiresFeedback of [false, true])
          for (const gaveFeedback of [false, true]) {
            const user: TileUser = {
              ...(userIsPro ? pro : free),
              topicLevels: { Other: 1 },
              topicFeedback: gaveFeedback ? { React: true } : {},
            };
            const s = set({ isPremium, index, requiresFeedback });
            const premiumLocked = isPremium && !userIsPro;
            const progressLocked = index > 2;
            const needsFeedback = requiresFeedback && !gaveFeedback;
            const expected = premiumLocked ? 'upgrade' : progressLocked ? 'none' : needsFeedback ? 'feedback' : 'select';
            it(`premium=${isPremium} pro=${userIsPro} index=${index} requiresFeedback=${requiresFeedback} gave=${gaveFeedback} -> ${expected}`, () => {
              const state = tileState(s, user);
              expect(state.action).toBe(expected);
              expect(state.premiumLocked).toBe(premiumLocked);
              expect(state.progressLocked).toBe(progressLocked);
              expect(state.nextAvailable).toBe(index === 2 && !needsFeedback);
              expect(sessionRefusal(s, user) === null).toBe(expected === 'select');
            });
          }

  it('shows hints and icons in priority order', () => {
    expect(tileState(set({ isPremium: true }), free)).toMatchObject({ hint: 'Premium', icon: '🔒' });
    expect(tileState(set({ index: 3 }), free)).toMatchObject({ hint: 'Go through previous questions first', icon: '🚀' });
    expect(tileState(set({ requiresFeedback: true }), free)).toMatchObject({ hint: 'Please provide feedback first', icon: '💬' });
    expect(tileState(set({}), free)).toMatchObject({ hint: null, icon: null, nextAvailable: true });
  });

  it('ticks a set when the topic level reaches its index', () => {
    const user = { ...free, topicLevels: { React: 2 } };
    expect(tileState(set({ index: 2 }), user).completed).toBe(true);
    expect(tileState(set({ index: 3 }), user).completed).toBe(false);
    expect(tileState(set({ name: 'Go', index: 1 }), user).completed).toBe(false);
  });
});

describe('score colours (docs/product-rules.md, Results and history)', () => {
  it.each([
    [100, 'green'],
    [80, 'green'],
    [79.9, 'yellow'],
    [60, 'yellow'],
    [59, 'red'],
    [0, 'red'],
  ] as const)('%s -> %s', (score, colour) => expect(scoreColour(score)).toBe(colour));
});

/**
 * The subscription as these rules read it; the contract's `Subscription` (contract/user.ts) has
 * this shape, and domain/ imports nothing of ours so both sides can use it.
 */
export interface Subscription {
  type: 'pro' | 'free';
  status: 'active' | 'inactive';
}

/** docs/product-rules.md, Topic tiles: pro means subscription type pro with status active. */
export function isActivePro(subscription: Subscription | null | undefined): boolean {
  return subscription?.type === 'pro' && subscription.status === 'active';
}

/** docs/product-rules.md, Topic tiles: the maximum of all topic levels, at least 0. */
export function highestCompletedLevel(topicLevels: Record<string, number>): number {
  return Math.max(0, ...Object.values(topicLevels));
}

export interface TileSet {
  name: string;
  index: number;
  isPremium: boolean;
  requiresFeedback: boolean;
}

export interface TileUser {
  subscription: Subscription | null;
  topicLevels: Record<string, number>;
  topicFeedback: Record<string, boolean>;
}

/** What clicking a tile does (docs/product-rules.md, Topic tiles). */
export type TileAction = 'upgrade' | 'none' | 'feedback' | 'select';

export interface TileState {
  premiumLocked: boolean;
  progressLocked: boolean;
  needsFeedback: boolean;
  /** ✅: the user's level for this topic is at least the set's index. */
  completed: boolean;
  /** The pulsing blue dot. */
  nextAvailable: boolean;
  action: TileAction;
  /** Hint text shown on the tile, if any. */
  hint: 'Premium' | 'Go through previous questions first' | 'Please provide feedback first' | null;
  icon: '🔒' | '🚀' | '💬' | null;
}

export function tileState(set: TileSet, user: TileUser): TileState {
  const highest = highestCompletedLevel(user.topicLevels);
  const premiumLocked = set.isPremium && !isActivePro(user.subscription);
  const progressLocked = set.index > highest + 1;
  const needsFeedback = set.requiresFeedback && !user.topicFeedback[set.name];
  const completed = (user.topicLevels[set.name] ?? 0) >= set.index;
  const nextAvailable = set.index === highest + 1 && !progressLocked && !needsFeedback;

  let action: TileAction = 'select';
  if (premiumLocked) action = 'upgrade';
  else if (progressLocked) action = 'none';
  else if (needsFeedback) action = 'feedback';

  const hint = premiumLocked
    ? 'Premium'
    : progressLocked
      ? 'Go through previous questions first'
      : needsFeedback
        ? 'Please provide feedback first'
        : null;
  const icon = premiumLocked ? '🔒' : progressLocked ? '🚀' : needsFeedback ? '💬' : null;
  return { premiumLocked, progressLocked, needsFeedback, completed, nextAvailable, action, hint, icon };
}

/** Why the server refuses to mint a token for a set, or null when allowed. Same rules as the tiles. */
export function sessionRefusal(set: TileSet, user: TileUser): string | null {
  const state = tileState(set, user);
  if (state.premiumLocked) return 'This topic is for Pro members. Please upgrade to Pro to use it.';
  if (state.progressLocked) return 'Please complete the previous question sets before this one.';
  if (state.needsFeedback) return 'Please share your feedback on this topic before starting this question set.';
  return null;
}

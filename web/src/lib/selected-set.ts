/**
 * The chosen topic is kept across a reload (docs/product-rules.md, Topic tiles): the set's id in
 * local storage, written when a set is chosen (or when History's "practise next" leads to one) and
 * read back by the main screen once its session chunk is there; forgotten when the interview on it
 * is rated and Continue reloads, so the topic list (and its next-set dot) comes back. Only lazy
 * chunks import this module.
 */
import { readStored, removeStored, writeStored } from './storage';

export const SELECTED_SET_KEY = 'selectedSet';

export function rememberSet(id: number): void {
  writeStored(SELECTED_SET_KEY, String(id));
}

export function rememberedSetId(): number | null {
  const id = Number(readStored(SELECTED_SET_KEY));
  return Number.isInteger(id) && id > 0 ? id : null;
}

export function forgetSet(): void {
  removeStored(SELECTED_SET_KEY);
}

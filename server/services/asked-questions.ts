/**
 * Which question each interviewer line asked, as the server recorded it (TranscriptEntry.askedQuestion:
 * the scripted interviewer says it with every line, takeTurn stores it). A turn-taking session is
 * rated from the transcript the browser sends, which carries no such field (the contract drops it);
 * the server's own stored turns do, so each line the browser sends is matched to the stored line of
 * the same words, in order, and takes its question from there. A line the server did not say
 * (a language model's, or one it never stored) stays without one, and the rater pairs it by order and meaning.
 */
import type { TranscriptEntry } from '../../contract';

const sameWords = (text: string) => text.replace(/\s+/g, ' ').trim();

export function withAskedQuestions(sent: readonly TranscriptEntry[], stored: readonly TranscriptEntry[]): TranscriptEntry[] {
  const lines = stored.filter((entry) => entry.role === 'interviewer');
  if (!lines.some((line) => line.askedQuestion !== undefined)) return sent.map(withoutAskedQuestion);
  let next = 0;
  return sent.map((entry) => {
    const plain = withoutAskedQuestion(entry);
    if (entry.role !== 'interviewer') return plain;
    const words = sameWords(entry.transcript);
    // The next stored line of the same words: lines are stored in the order they were said, and a
    // line the browser lost (a reload) is skipped over, never matched twice.
    const found = lines.findIndex((line, i) => i >= next && sameWords(line.transcript) === words);
    if (found === -1) return plain;
    next = found + 1;
    const asked = lines[found]!.askedQuestion;
    return asked === undefined ? plain : { ...plain, askedQuestion: asked };
  });
}

/** Only the server says which question a line asked: whatever came with the entry is dropped. */
function withoutAskedQuestion(entry: TranscriptEntry): TranscriptEntry {
  if (entry.askedQuestion === undefined) return entry;
  const { askedQuestion: _dropped, ...rest } = entry;
  return rest;
}

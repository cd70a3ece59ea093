/**
 * docs/product-rules.md, Session lifecycle (Leaving and coming back): the first line after a resume
 * repeats the interviewer's last line, led by "Welcome back." (server/services/turns.ts,
 * continuationTurn). When the candidate had already heard that line to its end, only "Welcome
 * back." is spoken; the line is shown, not said twice. A line never heard to its end (the page was
 * reloaded while it was spoken) is said again in full.
 */
import { WELCOME_BACK } from '../../../../domain/interviewer-protocol';

/** What of the continuation line `say` to speak, given the line the candidate last heard in full. */
export function spokenAfterResume(say: string, heard: string | undefined): { text: string; repeat: boolean } {
  if (heard && (say === heard || say === `${WELCOME_BACK} ${heard}`)) {
    return { text: say.startsWith(WELCOME_BACK) ? WELCOME_BACK : '', repeat: true };
  }
  return { text: say, repeat: false };
}

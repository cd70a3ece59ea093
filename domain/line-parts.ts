/**
 * An interviewer's line in parts to voice one after another (docs/speech-pipeline-mode.md and
 * docs/browser-speech-mode.md): the first sentence alone, since its voice can start soonest; very
 * short sentences joined to the next, so the voice does not stop and start. The server splits a
 * line as a language model writes it and the browser speaks each part as it arrives, so both use
 * this one rule.
 */

/** Parts of one line at most (in the speech pipeline each is one text-to-speech call); the rest of a longer line joins the last part. */
export const MAX_LINE_PARTS = 6;

export function speechParts(text: string): string[] {
  const sentences =
    text
      .match(/[^.!?]+(?:[.!?]+["')\]]*|$)\s*/g)
      ?.map((s) => s.trim())
      .filter(Boolean) ?? [];
  const parts: string[] = [];
  for (const sentence of sentences) {
    const last = parts.at(-1);
    if (last !== undefined && parts.length > 1 && last.length < 40) parts[parts.length - 1] = `${last} ${sentence}`;
    else if (last !== undefined && parts.length === 1 && last.length < 12) parts[0] = `${last} ${sentence}`;
    else if (parts.length < MAX_LINE_PARTS) parts.push(sentence);
    else parts[parts.length - 1] = `${last} ${sentence}`;
  }
  return parts;
}

/**
 * The parts of a line being written that can no longer change: all but the last of speechParts
 * (a later sentence only joins the last part or follows it).
 */
export function settledParts(sayFar: string): string[] {
  return speechParts(sayFar).slice(0, -1);
}

/**
 * Reads a line as a language model writes it: `read` hands each part that became settled since
 * the last read to `onParts`, once and in order, and answers whether any part was told (it is being
 * said); `told` lists the parts told so far.
 */
export function settledPartsReader(onParts: (parts: string[]) => void): { read(sayFar: string): boolean; told(): readonly string[] } {
  let told: string[] = [];
  return {
    read(sayFar) {
      const settled = settledParts(sayFar);
      if (settled.length > told.length) {
        onParts(settled.slice(told.length));
        told = settled;
      }
      return told.length > 0;
    },
    told: () => told,
  };
}

/**
 * Meaning by sentence: how close two texts are by the rater's sentence model
 * (server/rater/sentence-encoder.ts), looked up synchronously. The judge runs synchronously, so
 * the texts it will ask about (textsToEmbed in rubric-rater.ts) are embedded first, in one batch,
 * and the judge then reads their closeness from this lookup.
 */
import type { SentenceEncoder } from './sentence-encoder';

export interface SentenceMeaning {
  /** Cosine of the two texts' vectors (-1 to 1); undefined when either text was not embedded. */
  closeness(a: string, b: string): number | undefined;
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/** A lookup over texts already embedded (unit vectors by text). */
export function meaningFromVectors(vectors: ReadonlyMap<string, Float32Array>): SentenceMeaning {
  return {
    closeness(a, b) {
      const va = vectors.get(a);
      const vb = vectors.get(b);
      return va && vb ? dot(va, vb) : undefined;
    },
  };
}

/** Embeds each distinct text once and answers the closeness of any two of them. */
export async function meaningFor(encoder: SentenceEncoder, texts: Iterable<string>): Promise<SentenceMeaning> {
  const distinct = [...new Set(texts)];
  const vectors = await encoder.embed(distinct);
  return meaningFromVectors(new Map(distinct.map((t, i) => [t, vectors[i]!])));
}

/** One lookup over two batches (a rating embeds what pairing needs first): the first that knows both texts answers. */
export function eitherMeaning(first: SentenceMeaning | undefined, second: SentenceMeaning | undefined): SentenceMeaning | undefined {
  if (!first || !second) return first ?? second;
  return { closeness: (a, b) => first.closeness(a, b) ?? second.closeness(a, b) };
}

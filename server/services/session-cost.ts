/**
 * A session's estimated cost: its usage times the price table (MODEL_PRICES over the defaults in
 * server/config.ts). Linear, so the cost of each recorded part is added as it comes
 * (docs/decisions/012-session-telemetry.md). An estimate: list prices, our own counting.
 */
import type { SessionUsage } from '../../contract';
import type { ModelPrice, ModelPrices } from '../openai-models';

const PER_MILLION = 1_000_000;

function priceOf(prices: ModelPrices, model: string | undefined): ModelPrice | null {
  return model !== undefined && Object.hasOwn(prices, model) ? (prices[model] ?? null) : null;
}

const n = (value: number | undefined) => value ?? 0;

/** USD for one recorded part of a session's usage; null when none of its models has a price. */
export function estimateCost(usage: SessionUsage, prices: ModelPrices): number | null {
  let total: number | null = null;
  const add = (usd: number) => {
    total = (total ?? 0) + usd;
  };
  const voice = priceOf(prices, usage.realtimeModel);
  if (voice) {
    // Input counts include their cached part, which is billed at the cached price.
    const text = n(usage.textInTokens) - n(usage.cachedTextInTokens);
    const audio = n(usage.audioInTokens) - n(usage.cachedAudioInTokens);
    add(
      (Math.max(0, text) * n(voice.textIn) +
        n(usage.cachedTextInTokens) * n(voice.cachedTextIn ?? voice.textIn) +
        Math.max(0, audio) * n(voice.audioIn) +
        n(usage.cachedAudioInTokens) * n(voice.cachedAudioIn ?? voice.audioIn) +
        n(usage.textOutTokens) * n(voice.textOut) +
        n(usage.audioOutTokens) * n(voice.audioOut)) /
        PER_MILLION,
    );
  }
  const transcription = priceOf(prices, usage.transcriptionModel);
  if (transcription) {
    add(
      (n(usage.transcriptionAudioTokens) * n(transcription.audioIn) + n(usage.transcriptionTextTokens) * n(transcription.textOut)) /
        PER_MILLION +
        (n(usage.transcribedSeconds) / 60) * n(transcription.audioMinute),
    );
  }
  const speech = priceOf(prices, usage.speechModel);
  if (speech) add((n(usage.synthesisedCharacters) * n(speech.characters)) / PER_MILLION);
  const llm = priceOf(prices, usage.llmModel);
  if (llm) {
    const uncached = Math.max(0, n(usage.llmInTokens) - n(usage.llmCachedInTokens));
    add(
      (uncached * n(llm.textIn) + n(usage.llmCachedInTokens) * n(llm.cachedTextIn ?? llm.textIn) + n(usage.llmOutTokens) * n(llm.textOut)) /
        PER_MILLION,
    );
  }
  return total;
}

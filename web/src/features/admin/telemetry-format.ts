/**
 * How the admin pages write session telemetry (docs/product-rules.md, Session telemetry): the
 * transport, the end, durations, usage and the estimated cost, as the event details and the
 * dashboard show them.
 */
import type { SessionEndReason, SessionTelemetry, SessionUsage } from '../../../../contract';

const TRANSPORTS: Record<string, string> = {
  'openai-realtime': 'OpenAI Realtime',
  'browser-speech': 'Browser speech',
  'speech-pipeline': 'Speech pipeline',
};

export function transportText(session: Pick<SessionTelemetry, 'transport' | 'input'>): string {
  const name = TRANSPORTS[session.transport] ?? session.transport;
  return session.input === 'typed' ? `${name} (typed answers)` : name;
}

export const END_REASON_TEXTS: Record<SessionEndReason, string> = {
  'closed-by-interviewer': 'Closed by the interviewer',
  'stopped-by-candidate': 'Stopped by the candidate',
  'connection-lost': 'Connection lost',
  'time-limit': 'Time limit reached',
  'service-error': 'Ended by a service error',
  'failed-start': 'Failed to start',
  expired: 'Expired without a rating',
  left: 'Left open; ended automatically',
};

export function endText(session: Pick<SessionTelemetry, 'endReason' | 'endDetail'>): string {
  if (session.endReason === null) return 'Not ended';
  const reason = END_REASON_TEXTS[session.endReason];
  return session.endDetail ? `${reason}: ${session.endDetail}` : reason;
}

/** 45 s, 7 min 30 s, 1 h 5 min. */
export function secondsText(seconds: number): string {
  const whole = Math.round(seconds);
  if (whole < 60) return `${whole} s`;
  if (whole < 3600) return whole % 60 === 0 ? `${whole / 60} min` : `${Math.floor(whole / 60)} min ${whole % 60} s`;
  return `${Math.floor(whole / 3600)} h ${Math.floor((whole % 3600) / 60)} min`;
}

/** 550 ms, 1.2 s. */
export function millisecondsText(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** $2.50; small sums keep four decimals ($0.0041), so a single session's cost is not $0.00. */
export function usdText(usd: number): string {
  if (usd === 0) return '$0.00';
  return usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

const n = (value: number | undefined) => (value ?? 0).toLocaleString('en-US');

/** One line per part of the usage the transport reported. */
export function usageLines(usage: SessionUsage): string[] {
  const lines: string[] = [];
  if (usage.responses) {
    const cached = (usage.cachedTextInTokens ?? 0) + (usage.cachedAudioInTokens ?? 0);
    lines.push(
      `${usage.realtimeModel ?? 'Voice model'}: ${n(usage.responses)} responses; in ${n(usage.textInTokens)} text + ${n(usage.audioInTokens)} audio tokens` +
        `${cached > 0 ? ` (${n(cached)} cached)` : ''}; out ${n(usage.textOutTokens)} text + ${n(usage.audioOutTokens)} audio tokens`,
    );
  }
  const transcribed: string[] = [];
  if (usage.transcriptionAudioTokens || usage.transcriptionTextTokens) {
    transcribed.push(`${n(usage.transcriptionAudioTokens)} audio + ${n(usage.transcriptionTextTokens)} text tokens`);
  }
  if (usage.transcribedSeconds) transcribed.push(`${usage.transcribedSeconds.toFixed(1)} s of audio`);
  if (transcribed.length > 0) lines.push(`Transcription (${usage.transcriptionModel ?? 'unknown model'}): ${transcribed.join(', ')}`);
  if (usage.synthesisedCharacters)
    lines.push(`Speech (${usage.speechModel ?? 'unknown model'}): ${n(usage.synthesisedCharacters)} characters`);
  if (usage.llmCalls) {
    const cached = usage.llmCachedInTokens ? ` (${n(usage.llmCachedInTokens)} cached)` : '';
    lines.push(
      `Language model (${usage.llmModel ?? 'unknown model'}, interviewer and rater): ${n(usage.llmCalls)} calls${usage.raterCalls ? ` (${n(usage.raterCalls)} by the rater)` : ''}; in ${n(usage.llmInTokens)} tokens${cached}; out ${n(usage.llmOutTokens)} tokens`,
    );
  }
  return lines;
}

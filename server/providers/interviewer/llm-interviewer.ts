/**
 * The browser-speech interviewer backed by an OpenAI-compatible chat endpoint. Same instructions
 * and close_session tool as the realtime interviewer; endpoints without tool support (some
 * Ollama / llama.cpp models) get a JSON-field protocol instead, detected on the first refusal.
 */
import { z } from 'zod';
import type { TurnResponse } from '../../../contract';
import {
  buildInterviewerInstructions,
  CLOSE_SESSION_DESCRIPTION,
  CLOSE_SESSION_TOOL_NAME,
  closeSessionToolParameters,
  closingRemarkInstructions,
} from './interviewer-instructions';
import { extractJsonObject, LlmError, type ChatMessage, type ChatTool, type LlmClient } from '../upstream/llm-client';
import { speakable } from './speakable';
import type { Interviewer, InterviewerTurnInput, LlmUsage, LlmUsageMeter } from '../types';

export const JOINED_MESSAGE = '(The candidate has joined the call.)';
export const FALLBACK_CLOSING_REMARK = 'Thank you for your time today. Your written feedback is being prepared.';
const DEFAULT_CLOSE_REASON = 'the interviewer ended the interview';

const TOOLS_ADDENDUM = [
  '',
  'Each reply of yours is exactly what you say next, as plain text that will be read aloud.',
  `When you call ${CLOSE_SESSION_TOOL_NAME}, also put your brief closing remark in the reply text.`,
].join('\n');

const JSON_ADDENDUM = [
  '',
  'This connection has no function calling. Reply ONLY with one JSON object and nothing else:',
  '{"say": "<what you say next>", "close_session": null}',
  `To end the interview (instead of calling ${CLOSE_SESSION_TOOL_NAME}), reply:`,
  '{"say": "<your brief closing remark>", "close_session": {"reason": "<short reason>"}}',
].join('\n');

const closeTool: ChatTool = {
  type: 'function',
  function: {
    name: CLOSE_SESSION_TOOL_NAME,
    description: CLOSE_SESSION_DESCRIPTION,
    parameters: closeSessionToolParameters as unknown as Record<string, unknown>,
  },
};

const jsonTurnSchema = z.object({
  say: z.string(),
  close_session: z.object({ reason: z.string().optional() }).nullish(),
});

function reasonFrom(args: string): string {
  const parsed = extractJsonObject(args);
  const reason =
    parsed && typeof parsed === 'object' && 'reason' in parsed && typeof parsed.reason === 'string' ? parsed.reason.trim() : '';
  return reason || DEFAULT_CLOSE_REASON;
}

function buildMessages(input: InterviewerTurnInput, protocol: 'tools' | 'json'): ChatMessage[] {
  const system = buildInterviewerInstructions(input.set) + '\n' + (protocol === 'tools' ? TOOLS_ADDENDUM : JSON_ADDENDUM);
  const messages: ChatMessage[] = [
    { role: 'system', content: system },
    { role: 'user', content: JOINED_MESSAGE },
  ];
  for (const entry of input.history) {
    messages.push(
      entry.role === 'interviewer'
        ? {
            role: 'assistant',
            content: protocol === 'json' ? JSON.stringify({ say: entry.transcript, close_session: null }) : entry.transcript,
          }
        : { role: 'user', content: entry.transcript },
    );
  }
  const last = input.history.at(-1);
  const utterance = input.utterance?.trim();
  if (utterance && !(last?.role === 'interviewee' && last.transcript.trim() === utterance)) {
    messages.push({ role: 'user', content: utterance });
  }
  return messages;
}

/** A turn is one or two spoken sentences (and a tool call); a goodbye is shorter. */
export const TURN_MAX_TOKENS = 400;
export const CLOSING_MAX_TOKENS = 200;

export function createLlmInterviewer(client: LlmClient): Interviewer {
  // Every completion is metered, also when the endpoint reports no usage: the session's turn budget counts calls.
  const usageOf = (result: { usage: LlmUsage | null }): LlmUsage =>
    result.usage ?? { model: client.model, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 };
  // Learned once per process: an endpoint that refuses tools refuses them every time.
  let protocol: 'tools' | 'json' = 'tools';

  async function closingRemark(messages: ChatMessage[], reason: string, meter: LlmUsageMeter | undefined): Promise<string> {
    try {
      const result = await client.chat({
        messages: [...messages, { role: 'user', content: `[Note from the system: ${closingRemarkInstructions(reason)}]` }],
        temperature: 0.6,
        max_tokens: CLOSING_MAX_TOKENS,
      });
      meter?.(usageOf(result));
      const parsed = jsonTurnSchema.safeParse(extractJsonObject(result.content ?? ''));
      const say = speakable(parsed.success ? parsed.data.say : (result.content ?? ''));
      return say || FALLBACK_CLOSING_REMARK;
    } catch {
      // The interview is over either way; a plain goodbye beats an error at the very end.
      return FALLBACK_CLOSING_REMARK;
    }
  }

  /**
   * Streams the reply to `input.onDraft` as it is written, under the tools protocol only (a JSON
   * reply is not speakable until whole). A reply that opens with `{` is a tool call written as
   * text, held back until it is read whole. `drafted` records that words were said aloud.
   */
  function drafts(input: InterviewerTurnInput, drafted: { any: boolean }): ((contentSoFar: string) => void) | undefined {
    const { onDraft } = input;
    if (!onDraft || protocol !== 'tools') return undefined;
    return (contentSoFar) => {
      if (contentSoFar.trimStart().startsWith('{')) return;
      const sayFar = speakable(contentSoFar);
      if (sayFar && onDraft(sayFar)) drafted.any = true;
    };
  }

  async function once(input: InterviewerTurnInput, drafted: { any: boolean }): Promise<TurnResponse> {
    const messages = buildMessages(input, protocol);
    let result;
    try {
      result = await client.chat(
        protocol === 'tools'
          ? { messages, tools: [closeTool], temperature: 0.6, max_tokens: TURN_MAX_TOKENS }
          : { messages, temperature: 0.6, max_tokens: TURN_MAX_TOKENS },
        undefined,
        drafts(input, drafted),
      );
      input.meter?.(usageOf(result));
    } catch (error) {
      // Refused outright (400/404/422), or any error naming tools (llama.cpp answers 500 without --jinja).
      if (protocol === 'tools' && error instanceof LlmError && (error.rejectedRequest || /\btools?\b/i.test(error.message))) {
        protocol = 'json';
        return once(input, drafted);
      }
      throw error;
    }

    const content = result.content ?? '';
    const call = result.toolCalls.find((c) => c.name === CLOSE_SESSION_TOOL_NAME);
    // JSON replies: the protocol we asked for, or a model that writes its "tool call" as text.
    const json = jsonTurnSchema.safeParse(extractJsonObject(content));
    const asJson = json.success && (protocol === 'json' || content.trim().startsWith('{'));
    let say = speakable(asJson && json.success ? json.data.say : content);

    if (call || (asJson && json.success && json.data.close_session)) {
      const reason = call
        ? reasonFrom(call.arguments)
        : json.success && json.data.close_session?.reason?.trim()
          ? json.data.close_session.reason.trim()
          : DEFAULT_CLOSE_REASON;
      if (!say) say = await closingRemark(messages, reason, input.meter);
      return { say, closeSession: { reason } };
    }
    if (!say) {
      throw new LlmError('The language model answered with an empty line instead of the next question.', 502, true);
    }
    return { say, closeSession: null };
  }

  return {
    async nextTurn(input) {
      const drafted = { any: false };
      try {
        return await once(input, drafted);
      } catch (error) {
        // One more try for a glitch (5xx, malformed, empty); not after a timeout, the candidate is
        // waiting, and not once words of the reply are being said aloud (a second reply would say
        // other words after them).
        if (error instanceof LlmError && error.retryable && error.status !== 504 && !drafted.any) return once(input, drafted);
        throw error;
      }
    },
  };
}

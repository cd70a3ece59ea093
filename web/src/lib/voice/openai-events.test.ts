import { describe, expect, it } from 'vitest';
import { INAUDIBLE, INAUDIBLE_NOTICE, OpenAiEventHandler } from './openai-events';
import type { TransportEvent } from './types';

function setup(startedAt = 1000) {
  const sent: Record<string, unknown>[] = [];
  const emitted: TransportEvent[] = [];
  let now = startedAt;
  let micStops = 0;
  const handler = new OpenAiEventHandler({
    send: (e) => sent.push(e),
    emit: (e) => emitted.push(e),
    stopMicrophone: () => {
      micStops += 1;
    },
    now: () => now,
    startedAt,
  });
  return {
    handler,
    sent,
    emitted,
    micStops: () => micStops,
    advance: (ms: number) => {
      now += ms;
    },
    msg: (event: Record<string, unknown>) => handler.handleMessage(JSON.stringify(event)),
  };
}

const closeCall = (reason: string, callId = 'call_1') => ({
  type: 'response.done',
  response: {
    status: 'completed',
    output: [{ type: 'function_call', name: 'close_session', call_id: callId, arguments: JSON.stringify({ reason }) }],
  },
});

describe('OpenAiEventHandler', () => {
  it('asks for the first response once the session is created', () => {
    const t = setup();
    t.msg({ type: 'session.created', session: { id: 'sess_1' } });
    expect(t.sent).toEqual([{ type: 'response.create' }]);
    expect(t.emitted).toEqual([]);
  });

  it('turns GA transcript events into interviewer and candidate lines with ms since start', () => {
    const t = setup(500);
    t.advance(1200.4);
    t.msg({ type: 'response.output_audio_transcript.done', transcript: ' Tell me about yourself. ' });
    t.advance(3000);
    t.msg({ type: 'conversation.item.input_audio_transcription.completed', transcript: 'I build web apps.' });
    expect(t.emitted).toEqual([
      { type: 'interviewer', text: 'Tell me about yourself.', at: 1200 },
      { type: 'candidate', text: 'I build web apps.', at: 4200 },
    ]);
  });

  it('accepts the beta transcript name for interviewer lines', () => {
    const t = setup();
    t.msg({ type: 'response.audio_transcript.done', transcript: 'What is a closure?' });
    expect(t.emitted).toEqual([{ type: 'interviewer', text: 'What is a closure?', at: 0 }]);
  });

  it('ignores empty transcripts, unknown events and malformed messages', () => {
    const t = setup();
    t.msg({ type: 'conversation.item.input_audio_transcription.completed', transcript: '   ' });
    t.msg({ type: 'response.output_audio_transcript.delta', delta: 'Wh' });
    t.handler.handleMessage('not json');
    t.handler.handleMessage(42);
    expect(t.emitted).toEqual([]);
    expect(t.sent).toEqual([]);
  });

  it('reports speaking from the output audio buffer, without repeats, and clears it', () => {
    const t = setup();
    t.msg({ type: 'output_audio_buffer.started', response_id: 'r1' });
    t.msg({ type: 'output_audio_buffer.started', response_id: 'r1' });
    t.msg({ type: 'output_audio_buffer.stopped', response_id: 'r1' });
    t.msg({ type: 'output_audio_buffer.started', response_id: 'r2' });
    t.msg({ type: 'output_audio_buffer.cleared', response_id: 'r2' });
    expect(t.emitted).toEqual([
      { type: 'speaking', speaking: true },
      { type: 'speaking', speaking: false },
      { type: 'speaking', speaking: true },
      { type: 'speaking', speaking: false },
    ]);
  });

  it('leaves close_session to the server, and ends with its one closing remark: microphone off, close-requested once', () => {
    const t = setup();
    t.msg(closeCall('all questions covered'));
    // The server's sideband answers the tool and asks for the goodbye; the browser sends nothing.
    expect(t.sent).toEqual([]);
    expect(t.emitted).toEqual([]);
    t.msg({ type: 'response.created', response: { id: 'resp_vad', metadata: null } });
    expect(t.emitted).toEqual([]);
    t.msg({ type: 'response.created', response: { id: 'resp_bye', metadata: { purpose: 'closing', request: 'seq_2' } } });
    t.msg({ type: 'response.created', response: { id: 'resp_bye2', metadata: { purpose: 'closing' } } });
    expect(t.micStops()).toBe(1);
    expect(t.emitted).toEqual([{ type: 'close-requested', reason: 'the interviewer is closing the interview' }]);
    expect(t.handler.closing).toBe(true);
  });

  it('gives an answer the time its speech stopped, even when its transcription comes after the reply', () => {
    const t = setup();
    t.advance(2000);
    t.msg({ type: 'input_audio_buffer.speech_stopped', item_id: 'item_a1' });
    t.advance(1500);
    t.msg({ type: 'response.output_audio_transcript.done', transcript: 'Next question.' });
    t.advance(700);
    t.msg({ type: 'conversation.item.input_audio_transcription.completed', item_id: 'item_a1', transcript: 'My answer.' });
    t.msg({ type: 'conversation.item.input_audio_transcription.completed', item_id: 'item_unknown', transcript: 'Typed or unmatched.' });
    expect(t.emitted).toEqual([
      { type: 'interviewer', text: 'Next question.', at: 3500 },
      { type: 'candidate', text: 'My answer.', at: 2000 },
      { type: 'candidate', text: 'Typed or unmatched.', at: 4200 },
    ]);
  });

  it('ends on a failed response with its message, and carries on after a cancelled one', () => {
    const t = setup();
    t.msg({
      type: 'response.done',
      response: { status: 'cancelled', status_details: { type: 'cancelled', reason: 'turn_detected' }, output: [] },
    });
    expect(t.emitted).toEqual([]);
    t.msg({
      type: 'response.done',
      response: {
        status: 'failed',
        status_details: { type: 'failed', error: { type: 'insufficient_quota', message: 'You exceeded your current quota.' } },
        output: [],
      },
    });
    expect(t.emitted).toEqual([{ type: 'failed', message: 'The voice service reported an error: You exceeded your current quota.' }]);
  });

  it('reports the closing remark done when its own audio buffer stops, not an earlier one', () => {
    const t = setup();
    t.msg({ type: 'response.created', response: { id: 'resp_bye', metadata: { purpose: 'closing' } } });
    t.emitted.length = 0;
    t.msg({ type: 'output_audio_buffer.stopped', response_id: 'resp_question' });
    expect(t.emitted).toEqual([]);
    t.msg({ type: 'output_audio_buffer.started', response_id: 'resp_bye' });
    t.msg({ type: 'output_audio_buffer.stopped', response_id: 'resp_bye' });
    expect(t.emitted).toEqual([
      { type: 'speaking', speaking: true },
      { type: 'speaking', speaking: false },
      { type: 'closing-remark-done' },
    ]);
  });

  it('takes the connection going away after the goodbye began as the end of the remark, not a failure', () => {
    const t = setup();
    t.msg({ type: 'response.created', response: { id: 'resp_bye', metadata: { purpose: 'closing' } } });
    t.msg({ type: 'output_audio_buffer.started', response_id: 'resp_bye' });
    t.emitted.length = 0;
    t.handler.fail('The connection to the voice service was lost.', true);
    t.handler.fail('The connection to the voice service was lost.', true);
    expect(t.emitted).toEqual([{ type: 'speaking', speaking: false }, { type: 'closing-remark-done' }]);
  });

  it('keeps an answer that could not be transcribed in its place as a marker, with a notice', () => {
    const t = setup(1000);
    t.advance(2000);
    t.msg({ type: 'input_audio_buffer.speech_stopped', item_id: 'a1' });
    t.advance(1500);
    t.msg({ type: 'conversation.item.input_audio_transcription.failed', item_id: 'a1', error: { message: 'unintelligible' } });
    expect(t.emitted).toEqual([
      { type: 'candidate', text: INAUDIBLE, at: 2000 },
      { type: 'notice', text: INAUDIBLE_NOTICE },
    ]);
    expect(INAUDIBLE_NOTICE).toBe('Your last answer could not be heard clearly. If it mattered, please say it again.');
  });

  it('does nothing for a response.done without a close_session call', () => {
    const t = setup();
    t.msg({ type: 'response.done', response: { output: [{ type: 'message', role: 'assistant' }] } });
    t.msg({ type: 'response.done', response: { output: [{ type: 'function_call', name: 'other_tool', call_id: 'x' }] } });
    t.msg({ type: 'response.done' });
    expect(t.emitted).toEqual([]);
    expect(t.sent).toEqual([]);
    expect(t.micStops()).toBe(0);
  });

  it('fails once on an error event, clearing the speaking indicator, and then goes quiet', () => {
    const t = setup();
    t.msg({ type: 'output_audio_buffer.started' });
    t.msg({ type: 'error', error: { type: 'server_error', code: 'session_expired', message: 'Your session hit the maximum duration.' } });
    t.handler.fail('The connection to the voice service was lost.');
    t.msg({ type: 'response.output_audio_transcript.done', transcript: 'late line' });
    expect(t.emitted).toEqual([
      { type: 'speaking', speaking: true },
      { type: 'speaking', speaking: false },
      { type: 'failed', message: 'The voice service reported an error: Your session hit the maximum duration.' },
    ]);
  });

  it('survives recoverable errors; only fatal ones end the interview', () => {
    const t = setup();
    t.msg({ type: 'error', error: { type: 'invalid_request_error', code: 'conversation_already_has_active_response', message: 'busy' } });
    t.msg({ type: 'error', error: { type: 'invalid_request_error', code: 'invalid_value', message: 'bad item' } });
    t.msg({ type: 'error', error: { type: 'server_error', code: null, message: 'hiccup' } });
    expect(t.emitted).toEqual([]);
    t.msg({
      type: 'error',
      error: { type: 'invalid_request_error', code: 'session_expired', message: 'Your session hit the maximum duration.' },
    });
    expect(t.emitted).toEqual([{ type: 'failed', message: 'The voice service reported an error: Your session hit the maximum duration.' }]);
  });

  it('emits nothing after a deliberate stop', () => {
    const t = setup();
    t.msg({ type: 'output_audio_buffer.started' });
    t.handler.stop();
    t.handler.fail('dropped');
    t.msg({ type: 'session.created' });
    expect(t.emitted).toEqual([
      { type: 'speaking', speaking: true },
      { type: 'speaking', speaking: false },
    ]);
    expect(t.sent).toEqual([]);
  });
});

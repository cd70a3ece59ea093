import { afterEach, describe, expect, it } from 'vitest';
import { fakeMp3, startFakeAudioServer, type FakeAudioOptions, type FakeAudioServer } from '../../../test-support/fake-audio-server';
import { createSpeechClients, SpeechError, type SpeechClientOptions } from './speech-clients';

const MODELS = { sttModel: 'Systran/faster-whisper-small', ttsModel: 'kokoro', ttsVoice: 'af_heart' };
let server: FakeAudioServer | null = null;

afterEach(async () => {
  await server?.close();
  server = null;
});

async function setup(apiKey: string | null, fake: Partial<FakeAudioOptions> = {}, options: SpeechClientOptions = {}) {
  server = await startFakeAudioServer({ apiKey, ...MODELS, ...fake });
  const endpoint = { baseUrl: server.baseUrl, apiKey };
  const clients = createSpeechClients(
    { stt: { ...endpoint, model: MODELS.sttModel }, tts: { ...endpoint, model: MODELS.ttsModel, voice: MODELS.ttsVoice } },
    options,
  );
  return { server, clients };
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  return Buffer.from(await new Response(stream).arrayBuffer());
}

const WAV = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(40)]);

describe('speech clients', () => {
  it('transcribes: multipart with the file, model and language, the bearer key', async () => {
    const { server, clients } = await setup('stt-key', { defaultTranscript: '  Closures keep their scope.  ' });
    expect(await clients.transcribe(WAV, 'audio/wav')).toBe('Closures keep their scope.');
    const [request] = server.requests;
    expect(request?.headers.authorization).toBe('Bearer stt-key');
    expect(request?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(request?.fields).toMatchObject({ model: MODELS.sttModel, language: 'en', response_format: 'json' });
    expect(request?.file?.name).toBe('answer.wav');
    expect(request?.file?.type).toBe('audio/wav');
    expect(request?.file?.bytes.equals(WAV)).toBe(true);
  });

  it('names a webm upload as webm', async () => {
    const { server, clients } = await setup(null);
    await clients.transcribe(WAV, 'audio/webm;codecs=opus');
    expect(server.requests[0]?.file).toMatchObject({ name: 'answer.webm', type: 'audio/webm' });
  });

  it('sends no Authorization header to a server without a key', async () => {
    const { server, clients } = await setup(null);
    await clients.transcribe(WAV, 'audio/wav');
    await readAll(await clients.synthesize('Hello.'));
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([undefined, undefined]);
  });

  it('synthesises: JSON with model, voice, input and mp3, the audio streamed back', async () => {
    const { server, clients } = await setup('tts-key', { ttsChunks: 3, ttsChunkGapMs: 5 });
    const audio = await readAll(await clients.synthesize('Tell me about closures.'));
    expect(audio.equals(fakeMp3('Tell me about closures.'))).toBe(true);
    expect(server.requests[0]?.headers['content-type']).toBe('application/json');
    expect(server.requests[0]?.fields).toEqual({
      model: 'kokoro',
      voice: 'af_heart',
      input: 'Tell me about closures.',
      response_format: 'mp3',
    });
  });

  it('retries a failing call once', async () => {
    const { server, clients } = await setup('k');
    server.failNext('stt', 500);
    server.failNext('tts', 503);
    expect(await clients.transcribe(WAV, 'audio/wav')).toBe('This is what the candidate said.');
    await readAll(await clients.synthesize('Hi.'));
    expect(server.requests.map((r) => r.kind)).toEqual(['stt', 'stt', 'tts', 'tts']);
  });

  it('gives up after the retry with a sentence naming the server and the status', async () => {
    const { server, clients } = await setup('k');
    server.failNext('stt', 500, 2);
    const error = await clients.transcribe(WAV, 'audio/wav').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpeechError);
    expect((error as SpeechError).message).toBe(
      `The speech-to-text server (${new URL(server.baseUrl).origin}) answered HTTP 500: 500 Injected failure 500.`,
    );
    expect((error as SpeechError).status).toBe(502);
    expect(server.requests).toHaveLength(2);
  });

  it('a refused key is not retried and never appears in the error', async () => {
    const { server, clients } = await setup('right-key');
    const wrong = createSpeechClients({
      stt: { baseUrl: server.baseUrl, apiKey: 'wrong-key', model: MODELS.sttModel },
      tts: { baseUrl: server.baseUrl, apiKey: 'wrong-key', model: MODELS.ttsModel, voice: MODELS.ttsVoice },
    });
    const error = (await wrong.synthesize('Hi.').catch((e: unknown) => e)) as SpeechError;
    expect(error.message).toBe(`The text-to-speech server (${new URL(server.baseUrl).origin}) rejected the API key (HTTP 401).`);
    expect(error.message).not.toContain('wrong-key');
    expect(server.requests).toHaveLength(1);
    void clients;
  });

  it('a wrong model name is the server refusing, said plainly', async () => {
    const { server } = await setup(null);
    const clients = createSpeechClients({
      stt: { baseUrl: server.baseUrl, apiKey: null, model: 'whisper-large' },
      tts: { baseUrl: server.baseUrl, apiKey: null, model: MODELS.ttsModel, voice: MODELS.ttsVoice },
    });
    await expect(clients.transcribe(WAV, 'audio/wav')).rejects.toThrow('answered HTTP 404: 404 The model "whisper-large" does not exist.');
  });

  it('times out a server that never answers, after one retry', async () => {
    const { server, clients } = await setup(null, {}, { sttTimeoutMs: 150 });
    server.failNext('stt', 'hang', 2);
    const started = Date.now();
    const error = (await clients.transcribe(WAV, 'audio/wav').catch((e: unknown) => e)) as SpeechError;
    expect(error.message).toBe(`The speech-to-text server (${new URL(server.baseUrl).origin}) did not answer in time.`);
    expect(error.status).toBe(504);
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

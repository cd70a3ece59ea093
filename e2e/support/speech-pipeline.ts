/**
 * One spoken speech-pipeline suite (docs/speech-pipeline-mode.md): Chromium whose microphone plays
 * `segments` (seconds of silence and sentences spoken by espeak-ng), the fake audio server with
 * pocketsphinx and espeak-ng behind it, and the real server pointed at it. Call once at the top of
 * a spec; read `server` and `audio` inside its tests.
 */
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from './test';
import { chromiumArgs } from '../../playwright.config';
import { startFakeAudioServer, type FakeAudioServer } from '../../test-support/fake-audio-server';
import { espeakMp3, pocketsphinxTranscribe, spokenWav } from '../../test-support/local-speech';
import { startServer, type RunningServer } from '../../test-support/server-process';

const MODELS = { sttModel: 'pocketsphinx-en-us', ttsModel: 'espeak-ng', ttsVoice: 'en-us' };

export function spokenPipelineSuite(
  micFileName: string,
  segments: Array<number | string>,
): { readonly server: RunningServer; readonly audio: FakeAudioServer } {
  const micWav = spokenWav(path.join(tmpdir(), micFileName), segments);
  test.use({
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [...chromiumArgs, `--use-file-for-fake-audio-capture=${micWav}`, '--autoplay-policy=no-user-gesture-required'],
    },
  });
  let server: RunningServer | undefined;
  let audio: FakeAudioServer | undefined;
  test.beforeAll(async () => {
    audio = await startFakeAudioServer({ apiKey: null, ...MODELS, transcribe: pocketsphinxTranscribe, synthesize: espeakMp3 });
    server = await startServer({ env: audio.pipelineSettings });
  });
  test.afterAll(async () => {
    await server?.stop();
    await audio?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('The speech-pipeline suite has not started (use it inside a test).');
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get audio() {
      return started(audio);
    },
  };
}

/**
 * Browser entry of the transport harness page (bundled at test time): runs the real OpenAI transport
 * without the app, so the WebRTC path can be proven against the local peer on its own.
 */
import type { OpenAiToken } from '../../contract';
import { createOpenAiTransport } from '../../web/src/lib/realtime/openai-transport';
import type { TransportEvent, VoiceTransport } from '../../web/src/lib/realtime/types';

interface HarnessWindow {
  events: TransportEvent[];
  micTracks: MediaStreamTrack[];
  startError: string | null;
  startSession(token: OpenAiToken): Promise<boolean>;
  closeSession(): void;
  remoteAudioLevel(): Promise<number>;
}

const w = window as unknown as Window & HarnessWindow;
w.events = [];
w.micTracks = [];
w.startError = null;
let transport: VoiceTransport | null = null;

// Record the microphone tracks so the test can see the constraints and that close_session stops them.
const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
navigator.mediaDevices.getUserMedia = async (constraints) => {
  const stream = await original(constraints);
  w.micTracks.push(...stream.getAudioTracks());
  return stream;
};

w.startSession = async (token) => {
  transport = createOpenAiTransport(token, { userEmail: 'harness@example.com' });
  try {
    await transport.start(token, (e) => w.events.push(e), performance.now());
    return true;
  } catch (error) {
    w.startError = error instanceof Error ? error.message : String(error);
    return false;
  }
};

w.closeSession = () => transport?.close();

/** Peak level of the interviewer's audio over ~0.6 s (headless has no playout; measure the stream). */
w.remoteAudioLevel = async () => {
  const audio = document.querySelector<HTMLAudioElement>('audio[data-testid="interviewer-audio"]');
  const stream = audio?.srcObject;
  if (!(stream instanceof MediaStream)) return -1;
  const ctx = new AudioContext();
  await ctx.resume();
  const analyser = ctx.createAnalyser();
  ctx.createMediaStreamSource(stream).connect(analyser);
  const data = new Float32Array(analyser.fftSize);
  let peak = 0;
  for (let i = 0; i < 30; i++) {
    await new Promise((r) => setTimeout(r, 20));
    analyser.getFloatTimeDomainData(data);
    for (const v of data) peak = Math.max(peak, Math.abs(v));
  }
  await ctx.close();
  return peak;
};

/**
 * Runs the local realtime peer by hand (`npm run peer`), e.g. for a demo without an OpenAI key:
 *   npm run peer -- --port 8787 --max-questions 2
 * then start the app with OPENAI_API_KEY=test-key OPENAI_BASE_URL=<printed base URL>.
 */
import { startRealtimePeer } from './server';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const port = Number(arg('--port') ?? 0);
const maxQuestions = arg('--max-questions');
const peer = await startRealtimePeer(
  {
    apiKey: arg('--key') ?? 'test-key',
    maxQuestions: maxQuestions ? Number(maxQuestions) : null,
  },
  Number.isInteger(port) && port >= 0 ? port : 0,
);
console.log(`Local realtime peer listening. OPENAI_BASE_URL=${peer.baseUrl} OPENAI_API_KEY=${peer.options.apiKey}`);

const stop = () => {
  void peer.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

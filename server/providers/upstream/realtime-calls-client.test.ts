/**
 * The realtime call's wire request. `openai` is pinned to 6.x for Node 20, which has no
 * `realtime.calls.create`; the client sends the body `callForm` builds through the SDK's generic
 * `post`. The expected request below was recorded from `openai` 7.57's `realtime.calls.create`
 * (the boundary and the SDK's version headers aside), so the two stay byte-for-byte the same.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RealtimeSessionCreateRequest } from 'openai/resources/realtime/realtime';
import { afterEach, describe, expect, it } from 'vitest';
import { createRealtimeCallsClient } from './realtime-calls-client';

const SDP = 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\n';
const SESSION: RealtimeSessionCreateRequest = { type: 'realtime', model: 'gpt-realtime-2.1', instructions: 'Ask "why?" – once' };
/** What openai 7.57 sent for SDP and SESSION, with its multipart boundary written as BOUNDARY. */
const BODY_FROM_7X = [
  '--BOUNDARY',
  'Content-Disposition: form-data; name="sdp"',
  'Content-Type: application/sdp',
  '',
  SDP,
  '--BOUNDARY',
  'Content-Disposition: form-data; name="session"',
  'Content-Type: application/json',
  '',
  JSON.stringify(SESSION),
  '--BOUNDARY--',
  '',
].join('\r\n');

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let close: (() => void) | undefined;
afterEach(() => close?.());

async function upstream(): Promise<{ base: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (req.url === '/v1/realtime/calls') {
        res.writeHead(201, { location: '/v1/realtime/calls/rtc_123', 'content-type': 'application/sdp' });
        res.end('v=0\r\nanswer\r\n');
      } else res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => server.close();
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen };
}

describe('realtime calls client on the wire', () => {
  it('posts the offer and the session as openai 7.x does, and hangs up', async () => {
    const { base, seen } = await upstream();
    const client = createRealtimeCallsClient({ openaiApiKey: 'sk-test', openaiBaseUrl: base }, { warn: () => {} });
    await expect(client.create(SDP, SESSION, {})).resolves.toEqual({ callId: 'rtc_123', answer: 'v=0\r\nanswer\r\n' });
    await client.hangup('rtc_123');

    const [create, hangup] = seen;
    expect(create).toMatchObject({ method: 'POST', url: '/v1/realtime/calls' });
    expect(create!.headers).toMatchObject({ authorization: 'Bearer sk-test', accept: 'application/sdp' });
    const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(create!.headers['content-type'] ?? '')?.[1];
    expect(boundary).toBeTruthy();
    expect(create!.body.replaceAll(boundary!, 'BOUNDARY')).toBe(BODY_FROM_7X);

    expect(hangup).toMatchObject({ method: 'POST', url: '/v1/realtime/calls/rtc_123/hangup', body: '' });
    expect(hangup!.headers).toMatchObject({ authorization: 'Bearer sk-test', accept: '*/*' });
  });
});

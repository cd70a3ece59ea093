/**
 * A browser stand-in for server tests: a werift peer that makes a real SDP offer (Opus audio plus
 * the `oai-events` data channel) and can read the events the call sends it.
 */
import { RTCPeerConnection, useOPUS, type RTCDataChannel } from 'werift';
import { closePeerConnection } from './close';

export interface TestOffer {
  sdp: string;
  /** Server events received on oai-events (after the answer is applied). */
  events: Array<{ type: string } & Record<string, unknown>>;
  channel: RTCDataChannel;
  accept(answerSdp: string): Promise<void>;
  close(): Promise<void>;
}

export async function makeOffer(): Promise<TestOffer> {
  const pc = new RTCPeerConnection({
    codecs: { audio: [useOPUS()], video: [] },
    iceInterfaceAddresses: { udp4: '127.0.0.1' },
    iceUseIpv6: false,
    iceAdditionalHostAddresses: ['127.0.0.1'],
  });
  pc.addTransceiver('audio', { direction: 'sendrecv' });
  const channel = pc.createDataChannel('oai-events');
  const events: TestOffer['events'] = [];
  channel.onMessage.subscribe((data) => {
    try {
      events.push(JSON.parse(typeof data === 'string' ? data : data.toString('utf8')) as TestOffer['events'][number]);
    } catch {
      // not JSON
    }
  });
  await pc.setLocalDescription(await pc.createOffer());
  if (pc.iceGatheringState !== 'complete') {
    await new Promise<void>((resolve) => {
      const { unSubscribe } = pc.iceGatheringStateChange.subscribe((s) => {
        if (s === 'complete') {
          unSubscribe();
          resolve();
        }
      });
    });
  }
  return {
    sdp: pc.localDescription?.sdp ?? '',
    events,
    channel,
    accept: (answerSdp) => pc.setRemoteDescription({ type: 'answer', sdp: answerSdp }),
    close: () => closePeerConnection(pc),
  };
}

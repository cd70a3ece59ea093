import type { RTCPeerConnection } from 'werift';

/**
 * Closes a werift peer connection so that the far side notices at once, as a browser's close does:
 * the SCTP association is aborted while DTLS and ICE still carry the ABORT, then the connection
 * closes. werift 0.24 (the last release for Node 20; docs/decisions/023-node-20-sdk-pins.md) stops
 * DTLS first in its own `close()`, so the ABORT is never sent and the far side's data channel stays
 * open; 0.25 changed that order. A second `close()` of werift 0.25 finds the association stopped.
 */
export async function closePeerConnection(pc: RTCPeerConnection): Promise<void> {
  try {
    await pc.sctpTransport?.stop();
    // The ABORT is queued on the ICE socket: one turn of the event loop before close() shuts it.
    await new Promise((resolve) => setImmediate(resolve));
  } catch {
    // no association (never connected, or already gone)
  }
  await pc.close();
}

/**
 * Before a voice session is minted (and a credit spent), the app asks for the microphone once:
 * a refusal is known before anything is bought. The stream is closed at once; the transport asks
 * again later and the browser remembers the answer.
 */
export const MICROPHONE_BLOCKED = "Microphone access was blocked. Allow it in your browser's site settings and try again.";
export const MICROPHONE_MISSING = 'No microphone was found. Connect one and try again.';
export const MICROPHONE_UNAVAILABLE = 'The microphone could not be opened. Close other apps using it and try again.';

/** null when the microphone can be used, else the sentence to show. */
export async function checkMicrophone(
  media: Pick<MediaDevices, 'getUserMedia'> | undefined = globalThis.navigator?.mediaDevices,
): Promise<string | null> {
  if (!media?.getUserMedia) return MICROPHONE_UNAVAILABLE;
  try {
    const stream = await media.getUserMedia({ audio: true });
    for (const track of stream.getTracks()) track.stop();
    return null;
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'NotAllowedError' || name === 'SecurityError') return MICROPHONE_BLOCKED;
    if (name === 'NotFoundError' || name === 'OverconstrainedError') return MICROPHONE_MISSING;
    return MICROPHONE_UNAVAILABLE;
  }
}

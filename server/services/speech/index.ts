/**
 * The speech pipeline wing (docs/speech-pipeline-mode.md): the spoken turns (`turns.ts`: the
 * answer's audio to text, the interviewer's line to clips), the interviewer's audio clips stored in
 * the database (`clips.ts`, docs/decisions/017) and the length of an answer's WAV
 * (`wav-seconds.ts`). Code outside this folder imports it through this door only (eslint.config.js).
 */
export { MAX_CLIP_BYTES, createClipStore } from './clips';
export type { ClipStore } from './clips';
export {
  CLIP_FAILED,
  CLIP_GONE,
  INTERVIEWER_APOLOGY,
  MAX_LINE_PARTS,
  NOT_A_PIPELINE_SERVER,
  NOT_HEARD_APOLOGY,
  NOT_PCM_WAV,
  NO_AUDIO,
  answerTooLong,
  speechAudioTurn,
  speechBudgetUsed,
  speechClip,
  speechParts,
  speechTextTurn,
  speechTranscript,
} from './turns';

/**
 * Picks the AI providers from the parsed config: the voice (OpenAI realtime, browser speech or the
 * speech pipeline), the interviewer (scripted or LLM) and the rater (built-in or LLM). Keep it a
 * small switch: a new provider is one more branch here (ARCHITECTURE.md, "Where does new code go").
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Providers } from '../app-context';
import { resolveSpeechSettings, resolveVoiceMode, type AppConfig } from '../config';
import { createSpeechClients } from './upstream/speech-clients';
import { createSpeechPipelineVoice } from './voice/speech-pipeline-voice';
import { createBrowserSpeechVoice } from './voice/browser-speech-voice';
import { createOpenAiRealtimeVoice } from './voice/openai-realtime-voice';
import { CALL_TIMEOUT_MS, createRealtimeCallsClient } from './upstream/realtime-calls-client';
import { createLlmClient, DEFAULT_LLM_TIMEOUT_MS, resolveLlmSettings } from './upstream/llm-client';
import { createLlmInterviewer } from './interviewer/llm-interviewer';
import { createLlmRater } from './rating/llm-rater';
import { createLlmPhrasingDrafter } from './editor/llm-phrasings';
import { createRubricRater, type BuiltInRater } from '../rater';
import { createScriptedInterviewer } from './interviewer/scripted-interviewer';

export type { Providers };

/** `builtIn`: the built-in rater's workers (the application context's `rater`), which the rubric rater and the scripted interviewer judge with. */
export function createProviders(config: AppConfig, log: FastifyBaseLogger, builtIn: BuiltInRater): Providers {
  // VOICE_MODE (auto: realtime with an OpenAI key, else the pipeline when both speech servers
  // are named, else browser speech); loadConfig already refused incomplete combinations.
  const voiceMode = resolveVoiceMode(config);
  // Every upstream call ends by UPSTREAM_DEADLINE_SECONDS, first byte to last, or by its own shorter deadline.
  const deadlineMs = config.upstreamDeadlineSeconds * 1000;
  const speechSettings = voiceMode === 'pipeline' ? resolveSpeechSettings(config) : null;
  const speech =
    speechSettings && !('missing' in speechSettings) ? { clients: createSpeechClients(speechSettings, { deadlineMs }) } : undefined;
  const voice =
    voiceMode === 'realtime' ? createOpenAiRealtimeVoice(config) : speech ? createSpeechPipelineVoice() : createBrowserSpeechVoice();
  // An LLM (LLM_BASE_URL + LLM_MODEL, or OPENAI_API_KEY) upgrades the interviewer and the rater;
  // the rubric rater stays the fallback.
  const llm = resolveLlmSettings(config);
  const rubric = createRubricRater(builtIn);
  const rater = llm
    ? createLlmRater({
        client: createLlmClient(llm, { timeoutMs: Math.min(60_000, deadlineMs) }),
        fallback: rubric,
        onFallback: (error) => log.warn({ err: error.message }, 'LLM rater failed; the rubric rater answered'),
      })
    : rubric;
  const interviewer = llm
    ? createLlmInterviewer(createLlmClient(llm, { timeoutMs: Math.min(DEFAULT_LLM_TIMEOUT_MS, deadlineMs) }))
    : createScriptedInterviewer(builtIn);
  log.info(
    {
      voiceMode,
      voice: voice.transport,
      openaiConfigured: config.openaiApiKey !== null,
      llm: llm ? { baseUrl: llm.baseUrl, model: llm.model } : null,
      // Where the pipeline's audio goes (no keys): the first thing to check when speech fails.
      speech:
        speechSettings && !('missing' in speechSettings)
          ? {
              stt: { baseUrl: speechSettings.stt.baseUrl, model: speechSettings.stt.model },
              tts: { baseUrl: speechSettings.tts.baseUrl, model: speechSettings.tts.model, voice: speechSettings.tts.voice },
            }
          : null,
    },
    'providers selected',
  );
  // The server's half of every OpenAI voice call (SDP, sideband, hang-up) needs the key.
  const realtime =
    voiceMode === 'realtime' && config.openaiApiKey
      ? createRealtimeCallsClient({ openaiApiKey: config.openaiApiKey, openaiBaseUrl: config.openaiBaseUrl }, log, {
          timeoutMs: Math.min(CALL_TIMEOUT_MS, deadlineMs),
        })
      : undefined;
  // The question-set editor's drafts ("Suggest phrasings"): only with a language model.
  const phrasings = llm
    ? createLlmPhrasingDrafter(createLlmClient(llm, { timeoutMs: Math.min(DEFAULT_LLM_TIMEOUT_MS, deadlineMs) }))
    : undefined;
  return { voice, rater, interviewer, speech, realtime, phrasings };
}

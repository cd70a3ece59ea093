/**
 * The question-set editor's helpers, on the set as drafted (nothing is saved, no credit is spent):
 * "Try an answer" judges one answer to one question with the built-in rater, key point by key
 * point, and with the language-model rater when asked; "Suggest phrasings" asks the language model
 * for "Also accepted" phrasings and "Contradicted by" misconceptions of one key point, which the
 * operator reviews. Every request to the language model (a retry, the second request of a refused
 * schema or temperature too) counts against EDITOR_LLM_CALLS_PER_HOUR and its size in characters
 * against EDITOR_LLM_PROMPT_CHARS_PER_HOUR, shared by all admins and servers (the WindowCounter),
 * and one request carries at most EDITOR_MAX_PROMPT_CHARS (issue 33 item 6: the budget counted our
 * HTTP calls, and 54 of them made 80 model calls carrying 16.2 MB; one sent 604 KB).
 */
import type {
  PhrasingSuggestions,
  SetAssistant,
  SuggestPhrasingsInput,
  TriedKeyPoint,
  TryAnswerInput,
  TryAnswerResult,
} from '../../../contract';
import type { AppContext } from '../../app-context';
import { splitModelAnswers, type ModelAnswer } from '../../catalogue/model-answers';
import { ProviderError } from '../../providers/types';
import { quote, RUBRIC_RATER_NAME, splitStatements } from '../../rater';
import { checked } from './question-sets';
import { HttpError } from '../http-error';

const HOUR_MS = 60 * 60 * 1000;
const BUDGET_KEY = 'admin:editor-llm';
const CHARS_KEY = 'admin:editor-llm-chars';
/**
 * The most one request to the model may carry (its JSON body): a shipped set's try-answer prompt is
 * under 20,000. Larger is refused, not cut: a rating of half a set would judge the wrong thing.
 */
export const EDITOR_MAX_PROMPT_CHARS = 60_000;
/** Statements offered as phrasings, at most (long unpunctuated speech is read as many overlapping runs). */
const MAX_STATEMENTS = 20;
/** Drafts of each kind kept, at most; longer ones are no phrasing. */
const MAX_DRAFTS = 6;
const MAX_DRAFT_CHARS = 120;

export const NO_LANGUAGE_MODEL =
  'No language model is configured on this server, so it cannot draft phrasings or judge answers with one. Set LLM_BASE_URL and LLM_MODEL (or OPENAI_API_KEY) and restart the server; "Try an answer" with the built-in rater works without one.';
export const LANGUAGE_MODEL_OFF =
  'The editor\'s language-model calls are turned off on this server (EDITOR_LLM_CALLS_PER_HOUR=0); "Try an answer" with the built-in rater still works.';

function unavailable(ctx: AppContext): string | null {
  if (!ctx.providers.phrasings) return NO_LANGUAGE_MODEL;
  if (ctx.config.editorLlmCallsPerHour === 0) return LANGUAGE_MODEL_OFF;
  return null;
}

export function setAssistant(ctx: AppContext): SetAssistant {
  return {
    languageModel: ctx.providers.phrasings?.model ?? null,
    unavailable: unavailable(ctx),
    callsPerHour: ctx.config.editorLlmCallsPerHour,
  };
}

const inMinutes = (ttlMs: number) => {
  const minutes = Math.max(1, Math.ceil(ttlMs / 60_000));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
};

/**
 * The editor's budget for one of its calls: `reserve` is told every request before the provider
 * sends it and counts it, or refuses it (too large, or the hour's calls or characters used up);
 * `refused` is then the admin's sentence, which the call answers instead of whatever the provider
 * made of the refusal (the rater falls back to the rubric, the drafter fails).
 */
function editorBudget(ctx: AppContext): { reserve: (promptChars: number) => Promise<boolean>; refused: () => HttpError | null } {
  const why = unavailable(ctx);
  if (why) throw new HttpError(409, why);
  let refusal: HttpError | null = null;
  const refuse = (status: number, sentence: string) => {
    refusal = new HttpError(status, sentence);
    return false;
  };
  return {
    refused: () => refusal,
    async reserve(promptChars) {
      if (promptChars > EDITOR_MAX_PROMPT_CHARS) {
        return refuse(
          413,
          `This would send ${promptChars.toLocaleString('en-US')} characters to the language model in one request; the editor sends at most ${EDITOR_MAX_PROMPT_CHARS.toLocaleString('en-US')}. Shorten the set's model answers or the answer, or try it with the built-in rater.`,
        );
      }
      const perHour = ctx.config.editorLlmCallsPerHour;
      const calls = await ctx.limits.hit(BUDGET_KEY, HOUR_MS);
      if (calls.hits > perHour) {
        return refuse(
          429,
          `The editor's language-model budget of ${perHour} calls an hour (EDITOR_LLM_CALLS_PER_HOUR, all admins together) is used up. Try again in ${inMinutes(calls.ttlMs)}.`,
        );
      }
      const charsPerHour = ctx.config.editorLlmPromptCharsPerHour;
      const chars = await ctx.limits.hit(CHARS_KEY, HOUR_MS, promptChars);
      if (chars.hits > charsPerHour) {
        return refuse(
          429,
          `The editor's language-model budget of ${charsPerHour.toLocaleString('en-US')} characters an hour (EDITOR_LLM_PROMPT_CHARS_PER_HOUR, all admins together) is used up. Try again in ${inMinutes(chars.ttlMs)}.`,
        );
      }
      return true;
    },
  };
}

/** A language-model failure as the admin's sentence (the endpoint's own words included; never the key). */
function modelFailure(ctx: AppContext, error: unknown, what: string): never {
  if (!(error instanceof ProviderError)) throw error;
  ctx.log.warn({ err: error.message, upstream: error.upstreamCode }, `question-set editor: the language model could not ${what}`);
  throw new HttpError(error.status, `The language model could not ${what}: ${error.message}`);
}

/** The drafted set's question and its model answer, or a 400 sentence. */
function questionOf(input: { set: TryAnswerInput['set']; questionNumber: number }) {
  const set = checked(input.set);
  const question = set.questions[input.questionNumber - 1];
  if (question === undefined) throw new HttpError(400, `This set has no question ${input.questionNumber}.`);
  const model: ModelAnswer = splitModelAnswers(set.modelAnswers, set.questions.length)[input.questionNumber - 1] ?? {
    answer: '',
    keyPoints: [],
    accepted: [],
    contradictions: [],
  };
  return { set, question, model };
}

/**
 * "Try an answer": the built-in rater's verdict and score for one answer, what it made of each key
 * point with the statement that earned it, contradicted it or came closest, and the answer's
 * statements (what a phrasing line can quote); with `languageModel`, the language-model rater's
 * judgement of the same answer too.
 */
export async function tryAnswer(ctx: AppContext, input: TryAnswerInput): Promise<TryAnswerResult> {
  const { set, question, model } = questionOf(input);
  // Judged by the server's rater workers, as a rating is (one judgement everywhere).
  const judged = await ctx.rater.judge({ turns: [input.answer], model, question });
  const keyPoints = model.keyPoints.map((point): TriedKeyPoint => {
    const at = judged.covered.indexOf(point);
    if (at >= 0) return { point, outcome: 'credited', said: judged.evidence[at] ?? null, closeness: judged.closeness[at] ?? null };
    const wrong = judged.contradicted.find((c) => c.point === point);
    if (wrong) return { point, outcome: 'contradicted', said: wrong.said, closeness: null };
    const near = judged.nearMisses.find((n) => n.point === point);
    if (near) return { point, outcome: 'close', said: near.said, closeness: near.closeness };
    return { point, outcome: 'missed', said: null, closeness: null };
  });
  const statements = [
    ...new Set(
      splitStatements(input.answer)
        .filter((s) => !s.question && !s.salad)
        .map((s) => quote(s.text))
        .filter((s) => s !== ''),
    ),
  ].slice(0, MAX_STATEMENTS);
  let languageModel: TryAnswerResult['languageModel'] = null;
  if (input.languageModel) {
    const budget = editorBudget(ctx);
    const result = await ctx.providers.rater
      .rate({
        set: { id: 0, ...set },
        transcripts: [
          { role: 'interviewer', transcript: question },
          { role: 'interviewee', transcript: input.answer },
        ],
        durationSeconds: 60,
        reserveCall: budget.reserve,
      })
      .catch((error: unknown) => modelFailure(ctx, error, 'judge the answer'));
    // A refused request: the rater answered with the rubric; the admin is told why instead.
    const refused = budget.refused();
    if (refused) throw refused;
    const breakdown = result.breakdown[input.questionNumber - 1];
    if (breakdown) languageModel = { ...breakdown, rater: result.rater };
  }
  return {
    question,
    verdict: judged.verdict,
    score: judged.score,
    covered: judged.covered,
    missed: judged.missed,
    evidence: judged.evidence,
    rater: RUBRIC_RATER_NAME,
    keyPoints,
    statements,
    languageModel,
  };
}

/** A drafted phrasing as one line of a phrasing block can hold it: no `|` (the separator), no Markdown marks, no line breaks. */
export function cleanDraft(text: string): string {
  return text
    .replace(/[|*_`#<>[\]\\]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^["'“‘-]+|["'”’]+$/g, '')
    .replace(/[.;:,!]+$/, '')
    .trim();
}

/** Drafts worth offering: cleaned, short, each once, none the point already has (nor the point itself). */
function keptDrafts(drafts: readonly string[], known: readonly string[]): string[] {
  const seen = new Set(known.map((k) => cleanDraft(k).toLowerCase()));
  const kept: string[] = [];
  for (const draft of drafts) {
    const text = cleanDraft(draft);
    const key = text.toLowerCase();
    if (text.length < 3 || text.length > MAX_DRAFT_CHARS || seen.has(key)) continue;
    seen.add(key);
    kept.push(text);
    if (kept.length === MAX_DRAFTS) break;
  }
  return kept;
}

/** "Suggest phrasings": the language model's drafts for one key point of the set as drafted. Nothing is saved. */
export async function suggestPhrasings(ctx: AppContext, input: SuggestPhrasingsInput): Promise<PhrasingSuggestions> {
  const { question, model } = questionOf(input);
  const wanted = input.keyPoint.trim().toLowerCase();
  const at = model.keyPoints.findIndex((p) => p.toLowerCase() === wanted);
  const keyPoint = model.keyPoints[at];
  if (keyPoint === undefined) throw new HttpError(400, `Question ${input.questionNumber} has no key point "${input.keyPoint.trim()}".`);
  const drafter = ctx.providers.phrasings;
  const budget = editorBudget(ctx);
  if (!drafter) throw new HttpError(409, NO_LANGUAGE_MODEL);
  const accepted = model.accepted[at] ?? [];
  const contradicted = model.contradictions[at] ?? [];
  const drafts = await drafter
    .draft({
      question,
      modelAnswer: model.answer,
      keyPoint,
      otherKeyPoints: model.keyPoints.filter((_, i) => i !== at),
      accepted,
      contradicted,
      reserveCall: budget.reserve,
    })
    .catch((error: unknown) => {
      throw budget.refused() ?? modelFailure(ctx, error, 'draft phrasings');
    });
  const known = [keyPoint, ...accepted, ...contradicted];
  const keptAccepted = keptDrafts(drafts.accepted, known);
  return {
    keyPoint,
    accepted: keptAccepted,
    contradicted: keptDrafts(drafts.contradicted, [...known, ...keptAccepted]),
    drafter: `llm:${drafter.model}`,
  };
}

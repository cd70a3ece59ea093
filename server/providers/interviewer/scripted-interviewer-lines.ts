/**
 * What the scripted interviewer says, and how it reads the candidate's intent. Lines are plain
 * speakable sentences (they go to speech synthesis): no Markdown, no lists.
 */
import { speakable } from './speakable';

export const STOP_REASON = 'the candidate asked to stop';
export const DONE_REASON = 'all questions covered';

/** After an answer: thanks for one that said something, never for a thin one or an "I don't know". */
const ACKNOWLEDGEMENTS = ['Thank you.', 'Thanks, that is helpful.', 'Okay, thank you.', 'Got it, thanks.'];
const THIN_ACKNOWLEDGEMENT = 'All right.';
const NOT_KNOWN_ACKNOWLEDGEMENT = "That's all right, let's move on.";

/** How the candidate's last answer went, as the interviewer acknowledges it. */
export type AnswerKind = 'answer' | 'thin' | 'not-known';

export function openingLine(setName: string, questionCount: number, firstQuestion: string): string {
  const count = questionCount === 1 ? 'one question' : `${questionCount} questions`;
  return `Hello, and welcome to your practice interview on ${speakable(setName)}. I will ask you ${count}, one at a time, and you can take your time with each answer. Here is the first question. ${speakable(firstQuestion)}`;
}

export function nextQuestionLine(index: number, total: number, question: string, kind: AnswerKind = 'answer'): string {
  const ack =
    kind === 'not-known'
      ? NOT_KNOWN_ACKNOWLEDGEMENT
      : kind === 'thin'
        ? THIN_ACKNOWLEDGEMENT
        : ACKNOWLEDGEMENTS[index % ACKNOWLEDGEMENTS.length];
  const which = index === total - 1 ? 'Here is the last question.' : `Question ${index + 1} of ${total}.`;
  return `${ack} ${which} ${speakable(question)}`;
}

export function repeatLine(question: string): string {
  return `Of course. Here is the question again. ${speakable(question)}`;
}

export function waitingLine(question: string): string {
  return `Take your time. The question is: ${speakable(question)}`;
}

export const CLOSING_DONE =
  'Thank you, that covers all of my questions. Well done for working through them all. Your written feedback is being prepared now.';
export const CLOSING_STOP = 'Of course, we can stop here. Thank you for your time today. Your written feedback is being prepared now.';
/** The closing line after the last answer: an "I don't know" is not praised. */
export function closingDoneLine(kind: AnswerKind): string {
  return kind === 'not-known' ? `That's all right. ${CLOSING_DONE}` : CLOSING_DONE;
}
/** A set without questions: nothing to ask. */
export const CLOSING_EMPTY_SET = 'Hello, and thank you for joining. This question set has no questions yet, so we will end here.';

/** Follow-ups that name a missed key point's subject, as an interviewer would ask about it. */
const FOLLOW_UP_TEMPLATES = [
  (topic: string) => `Could you say a little more about ${topic}?`,
  (topic: string) => `What about ${topic}? Where does that come in?`,
  (topic: string) => `Could you expand on ${topic}, perhaps with an example?`,
  (topic: string) => `What can you tell me about ${topic}?`,
];
const GENERIC_FOLLOW_UPS = [
  'Could you go a little deeper on that, perhaps with a concrete example?',
  'Could you walk me through your reasoning in a bit more detail?',
  'Could you tell me how you have applied this in practice, and how it turned out?',
];
/** After "I don't know": no thanks, one nudge (a missed key point's subject, or a part to start from), then the next question. */
const NOT_KNOWN_FOLLOW_UP = (topic: string) => `That's all right. As a hint, think about ${topic}. What can you tell me about it?`;
const NOT_KNOWN_GENERIC_FOLLOW_UP = "That's all right. Is there any part of it you can answer, even a small one?";

/** Words that begin the claim part of a key point; what comes before names its subject. */
const CLAIM_WORDS = new Set(
  (
    'is are was were be keeps keep gives give means mean prevents prevent runs run uses use returns return with for to from by ' +
    'then rather versus vs than so but because which that when where has have can cannot must should needs need enables enable ' +
    'makes make allows allow handled determined stay stays such as like e.g. eg including into over against not do does in on ' +
    'before after while performs walks tracks frees share shares remount explores ignores limit queue link delegated finds checks ' +
    'triggers helps fails causes creates breaks pauses settles covers reduces bounds compared belongs break speeds all ' +
    'through happens waits resume resumes multiply sets linear quadratic'
  ).split(' '),
);
/** Subjects too vague to prompt on by themselves. */
const WEAK_TOPICS = new Set([
  'first',
  'both',
  'render',
  'react',
  'resources',
  'relational',
  'arrays',
  'synchronise',
  'javascript',
  'it',
  'this',
  'that',
  'new',
  'conditions',
  'concrete example',
  'concrete examples',
]);
const MAX_TOPIC_WORDS = 4;
/** Key points that start with one of these are instructions ("use data", "clarify the scope"): naming them gives the answer away. */
const INSTRUCTION_VERBS = new Set(
  (
    'understand raise use propose own explain communicate clarify break negotiate ask protect keep receiving asking passing ' +
    'continuing define decide distinguish map log handle crash hash confirm correlate compare fix store look call put compute ' +
    'sort estimate prefer avoid measure split lift treat validate plan verify add remove follow show state describe mention name ' +
    'give bring take make choose pick write run move cut start stop check consider reflect average no update implemented'
  ).split(' '),
);

/** The subject of a key point, safe to name in a follow-up ("hoisting and the temporal dead zone" -> itself; "var is function scoped" -> "var"). */
export function followUpTopic(keyPoint: string): string | null {
  // Only the first clause: "a, b and c" lists and "x, then y" claims both start before the comma.
  const words = (speakable(keyPoint).split(/[,:]/)[0] ?? '')
    .replace(/[;:()"]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const first = words[0]?.toLowerCase();
  if (!first || INSTRUCTION_VERBS.has(first)) return null;
  const subject: string[] = [];
  for (const word of words) {
    if (CLAIM_WORDS.has(word.toLowerCase().replace(/,$/, ''))) break;
    subject.push(word);
  }
  const topic = subject.join(' ').trim();
  if (!topic || subject.length > MAX_TOPIC_WORDS || WEAK_TOPICS.has(topic.toLowerCase())) return null;
  // "a function" (from "a function that remembers its scope") or a bare "429" is not something a person asks about.
  if (/^(a|an|the)( \S+)?$/i.test(topic) || /^[\d.]+$/.test(topic)) return null;
  return topic;
}

/**
 * A follow-up that points at the first missed key point with a nameable subject, else a generic
 * prompt; after an "I don't know" (`kind` 'not-known') a nudge that does not thank.
 */
export function followUpLine(missedKeyPoints: readonly string[], questionIndex: number, kind: AnswerKind = 'thin'): string {
  for (const point of missedKeyPoints) {
    const topic = followUpTopic(point);
    if (!topic) continue;
    return kind === 'not-known' ? NOT_KNOWN_FOLLOW_UP(topic) : FOLLOW_UP_TEMPLATES[questionIndex % FOLLOW_UP_TEMPLATES.length]!(topic);
  }
  return kind === 'not-known' ? NOT_KNOWN_GENERIC_FOLLOW_UP : GENERIC_FOLLOW_UPS[questionIndex % GENERIC_FOLLOW_UPS.length]!;
}

/**
 * Every follow-up this interviewer says has one of these forms; used to read the history. The
 * forms earlier versions said ("How would you bring …", "What else can you tell me about …") still
 * count, so an interview stored before them reads the same.
 */
export function isFollowUpLine(line: string): boolean {
  return (
    GENERIC_FOLLOW_UPS.includes(line) ||
    line === NOT_KNOWN_GENERIC_FOLLOW_UP ||
    /^(Could you say a little more about |Could you expand on |What can you tell me about |What else can you tell me about |That's all right\. As a hint, think about )/.test(
      line,
    ) ||
    /^(What about .+\? Where does that come in\?|How would you bring .+ into your answer\?)$/.test(line)
  );
}

const MAX_INTENT_WORDS = 30;
const wordCount = (text: string) => text.trim().split(/\s+/).filter(Boolean).length;

const NOT_KNOWN_WORDS = 12;
const NOT_KNOWN =
  /\b(?:(?:don't|do not|didn't|did not) (?:really )?(?:know|remember|recall)|dunno|not (?:really )?(?:sure|certain)|unsure|no (?:idea|clue)|(?:can't|cannot|couldn't) (?:remember|recall|say|answer)|(?:never|haven't|have not) heard of|not familiar with|(?:my )?mind (?:is|went) blank|blanking)\b/;
const PASS = /^\s*(?:i\s+)?(?:pass|skip(?: (?:it|this|this one|that))?|next question)[.!]?\s*$/;

/** "I don't know", "not sure", "no idea", "pass": a short reply that says the candidate does not know. */
export function saysNotKnown(utterance: string): boolean {
  if (wordCount(utterance) > NOT_KNOWN_WORDS) return false;
  const text = utterance.toLowerCase().replace(/’/g, "'");
  return NOT_KNOWN.test(text) || PASS.test(text);
}

/** "I want to stop", "let's end the interview", "can we stop here?" — not "stop the timer". */
export function wantsToStop(utterance: string): boolean {
  if (wordCount(utterance) > MAX_INTENT_WORDS) return false;
  const text = utterance.toLowerCase().replace(/’/g, "'");
  return (
    /\b(?:i\s+(?:want|would like|'d like|wanna|need|have)\s+to|can we|could we|let's|lets|let us|please)\s+(?:stop|end|finish|quit)(?:\s+(?:here|now|there|it|the interview|this interview|the session|this session|for today))?\s*(?:[.!?,]|$)/.test(
      text,
    ) ||
    /\b(?:stop|end|finish|quit|terminate)\s+(?:the|this)\s+(?:interview|session)\b/.test(text) ||
    /^\s*(?:stop|end)(?:\s+(?:please|now|here))?[.!]?\s*$/.test(text)
  );
}

/** "Can you repeat that?", "could you say it again", "what was the question?" */
export function wantsRepeat(utterance: string): boolean {
  if (wordCount(utterance) > MAX_INTENT_WORDS) return false;
  const text = utterance.toLowerCase().replace(/’/g, "'");
  return (
    /\b(?:can|could|would|will) you (?:please )?(?:repeat|say (?:that|it|the question) again|rephrase|read (?:that|it|the question) again)/.test(
      text,
    ) ||
    /\brepeat (?:that|the question|it|please|again)\b/.test(text) ||
    /^\s*(?:please\s+)?repeat\b/.test(text) ||
    /\bsay (?:that|it) again\b/.test(text) ||
    /\bwhat was the question\b/.test(text) ||
    /^\s*(?:sorry,?\s*)?(?:pardon|come again)\??\s*$/.test(text) ||
    /\bi didn't (?:catch|hear|get) (?:that|the question|it)\b/.test(text)
  );
}

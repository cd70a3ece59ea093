/**
 * Seeds a realistic database through the real schema (migrations + catalogue, then bulk SQL),
 * not through HTTP: accounts, rated interviews with transcripts and their sessions, one heavy
 * account, feedback.
 * Rows are generated inside the database with generate_series so 100k events take seconds and
 * the bench process does not hold them in memory.
 */
import { sql } from 'drizzle-orm';
import { CATALOGUE_DIR } from '../../server/app';
import { readCatalogue } from '../../server/catalogue/read-catalogue';
import type { Db } from '../../server/db/client';
import { loadCatalogueIfEmpty } from '../../server/services/catalogue';

export interface SeedPlan {
  accounts: number;
  events: number;
  /** Rated interviews of BIG_ACCOUNT (part of `events`). */
  bigAccountRatings: number;
  feedback: number;
}

export const BIG_ACCOUNT = 'big@bench.example';
export const PLAN_FULL: SeedPlan = { accounts: 10_000, events: 100_000, bigAccountRatings: 1_000, feedback: 5_000 };
export const PLAN_SMALL: SeedPlan = { ...PLAN_FULL, events: 10_000 };

/** The email of seeded account n (1-based); account 1 is the heavy one. */
export function seededEmail(n: number): string {
  return n === 1 ? BIG_ACCOUNT : `user-${String(n).padStart(5, '0')}@bench.example`;
}

const BATCH = 10_000;
/** Accounts 2..501 each have exactly REGULAR_RATINGS rated interviews (the login benchmark's users). */
export const REGULAR_USERS = 500;
export const REGULAR_RATINGS = 10;

// Eight turns of a plausible interview, about 1.5 KB as JSON; the event number varies the text.
const TRANSCRIPT = sql`jsonb_build_array(
  jsonb_build_object('role', 'interviewer', 'transcript', 'Welcome. Let us start: can you explain how the event loop schedules callbacks, and where promises fit in? (interview ' || g || ')'),
  jsonb_build_object('role', 'interviewee', 'transcript', 'Sure. The event loop takes tasks from the macrotask queue one at a time, and after each task it drains the microtask queue, which is where promise reactions go, so a resolved promise callback runs before the next timer even if the timer was due.'),
  jsonb_build_object('role', 'interviewer', 'transcript', 'Good. What happens if a microtask keeps scheduling more microtasks?'),
  jsonb_build_object('role', 'interviewee', 'transcript', 'Then the loop never gets back to rendering or to timers; the page freezes. I saw that once with a recursive promise chain that polled a cache, and we fixed it by yielding with setTimeout every few hundred iterations.'),
  jsonb_build_object('role', 'interviewer', 'transcript', 'How would you explain closures to a junior colleague?'),
  jsonb_build_object('role', 'interviewee', 'transcript', 'A function remembers the variables of the scope where it was created, not where it is called. I would show a counter factory and then the classic loop with var versus let, because that bug makes it click.'),
  jsonb_build_object('role', 'interviewer', 'transcript', 'Last one: when would you reach for a WeakMap?'),
  jsonb_build_object('role', 'interviewee', 'transcript', 'When I want to attach data to objects I do not own without keeping them alive, for example caching computed layout per DOM node; when the node goes away the entry can be collected. Score me kindly, answer ' || (g % 97) || '.')
)`;

const MARKDOWN = sql`'## Overall' || chr(10) || 'A solid interview with clear explanations of the event loop and closures (' || g || ').' || chr(10) || chr(10) ||
  '## Strengths' || chr(10) || '- Accurate model of macrotasks and microtasks' || chr(10) || '- Concrete production example' || chr(10) || chr(10) ||
  '## To improve' || chr(10) || '- Mention queueMicrotask and process.nextTick ordering' || chr(10) || '- Quantify the impact of the fix'`;

/** Seeded session n's id: the session row and its RATE event compute the same one. */
const SESSION_ID = sql`md5('bench-session-' || g)::uuid`;

/**
 * Each rated interview comes with its session, as the product records them: the same turns, and
 * telemetry (connected, ended, usage, cost) that the events page shows with every event.
 */
async function insertSessions(db: Db, from: number, to: number, accountSql: ReturnType<typeof sql>, total: number): Promise<void> {
  await db.execute(sql`
    with qs as (select id, (row_number() over (order by index)) - 1 as k, count(*) over () as n from question_sets)
    insert into interview_sessions (id, account_id, question_set_id, transport, status, turns, turn_calls, created_at,
                                    finished_at, connected_at, ended_at, end_reason, input, usage, estimated_cost_usd)
    select ${SESSION_ID}, a.id, qs.id, 'openai-realtime', 'rated', ${TRANSCRIPT}, 4,
           now() - ((${total}::int - g) * interval '3 minutes') - ((240 + (g * 7) % 1500) * interval '1 second') - interval '2 seconds',
           now() - ((${total}::int - g) * interval '3 minutes'),
           now() - ((${total}::int - g) * interval '3 minutes') - ((240 + (g * 7) % 1500) * interval '1 second') - interval '0.8 seconds',
           now() - ((${total}::int - g) * interval '3 minutes'), 'closed-by-interviewer', 'voice',
           jsonb_build_object('realtimeModel', 'gpt-realtime', 'responses', 5, 'textInTokens', 1200 + g % 300, 'audioInTokens', 9000 + g % 900,
                              'textOutTokens', 400, 'audioOutTokens', 6000, 'transcriptionModel', 'gpt-4o-mini-transcribe', 'transcribedSeconds', 200 + g % 60),
           0.25 + (g % 100) / 1000.0
    from generate_series(${from}::int, ${to}::int) as g
    join accounts a on a.id = ${accountSql}
    join qs on qs.k = g % qs.n`);
}

async function insertEvents(db: Db, from: number, to: number, accountSql: ReturnType<typeof sql>, total: number): Promise<void> {
  await insertSessions(db, from, to, accountSql, total);
  await db.execute(sql`
    with qs as (select id, name, index, (row_number() over (order by index)) - 1 as k, count(*) over () as n from question_sets)
    insert into events (event_type, account_id, user_email, question_set_id, topic, question_set_index, session_id, event_timestamp,
                        duration_seconds, transcript, rating_status, rating_markdown, score, rater)
    select 'RATE', a.id, a.email, qs.id, qs.name, qs.index - 1, ${SESSION_ID},
           now() - ((${total}::int - g) * interval '3 minutes'),
           240 + (g * 7) % 1500, ${TRANSCRIPT}, 'rated', ${MARKDOWN}, (g * 37) % 101, 'rubric'
    from generate_series(${from}::int, ${to}::int) as g
    join accounts a on a.id = ${accountSql}
    join qs on qs.k = g % qs.n`);
}

export async function seedDatabase(db: Db, plan: SeedPlan, log: (line: string) => void = () => undefined): Promise<void> {
  await loadCatalogueIfEmpty(db, () => readCatalogue(CATALOGUE_DIR));
  const started = Date.now();
  // Account ids are 1..N in insertion order on a fresh database; every tenth account is pro.
  await db.execute(sql`
    insert into accounts (email, subscription_id, created_at, last_login_at)
    select case when g = 1 then ${BIG_ACCOUNT} else 'user-' || lpad(g::text, 5, '0') || '@bench.example' end,
           case when g % 10 = 0 then 'sub-' || g else null end,
           now() - (g * interval '1 hour'), now() - (g * interval '1 minute')
    from generate_series(1, ${plan.accounts}::int) as g`);

  // The heavy account's ratings are spread through the table, like a user active for months.
  const bigEvery = Math.max(1, Math.floor(plan.events / plan.bigAccountRatings));
  for (let from = 1; from <= plan.events; from += BATCH) {
    const to = Math.min(plan.events, from + BATCH - 1);
    await insertEvents(
      db,
      from,
      to,
      // k numbers the other events 1, 2, ...: the first REGULAR_USERS * REGULAR_RATINGS go to
      // accounts 2..REGULAR_USERS+1 (exactly REGULAR_RATINGS each at every table size, so their
      // logins do the same work whether the table holds 10k or 100k events); the rest are spread.
      sql`case when g % ${bigEvery}::int = 0 and g / ${bigEvery}::int <= ${plan.bigAccountRatings}::int then 1
               when g - least(g / ${bigEvery}::int, ${plan.bigAccountRatings}::int) <= ${REGULAR_USERS * REGULAR_RATINGS}::int
                 then 2 + ((g - least(g / ${bigEvery}::int, ${plan.bigAccountRatings}::int)) % ${REGULAR_USERS}::int)
               else ${REGULAR_USERS + 2}::int + (g % ${plan.accounts - REGULAR_USERS - 1}::int) end`,
      plan.events,
    );
  }

  await db.execute(sql`
    with qs as (select name, (row_number() over (order by index)) - 1 as k, count(*) over () as n from question_sets)
    insert into feedback (account_id, user_email, topic, question_index, feedback, created_at)
    select a.id, a.email, qs.name, 1 + g % 5,
           'Feedback ' || g || ': the questions were realistic and the pace felt right, but I would like the interviewer to dig deeper into trade-offs and give me a hint when I get stuck on the follow-up.',
           now() - (g * interval '7 minutes')
    from generate_series(1, ${plan.feedback}::int) as g
    join accounts a on a.id = 2 + (g % ${plan.accounts - 1}::int)
    join qs on qs.k = g % qs.n`);
  // What the app keeps with every rating (services/ratings.ts); the migration backfills the same way.
  await db.execute(sql`
    update accounts a set rated_interviews = c.n
    from (select account_id, count(*)::int as n from events where event_type = 'RATE' and rating_status = 'rated' group by account_id) c
    where c.account_id = a.id`);
  await db.execute(sql`analyze`);
  log(
    `seeded ${plan.accounts} accounts, ${plan.events} events, ${plan.feedback} feedback in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

/** Counts, to prove the seed is what the report says. */
export async function seedCounts(db: Db): Promise<Record<string, number>> {
  const result = await db.execute<{ accounts: number; events: number; big: number; feedback: number; with_transcript: number }>(sql`
    select (select count(*)::int from accounts) as accounts,
           (select count(*)::int from events) as events,
           (select count(*)::int from events where transcript is not null) as with_transcript,
           (select count(*)::int from events e join accounts a on a.id = e.account_id where a.email = ${BIG_ACCOUNT} and e.event_type = 'RATE') as big,
           (select count(*)::int from feedback) as feedback`);
  const row = (result as unknown as { rows: Array<Record<string, number>> }).rows[0];
  if (!row) throw new Error('count query returned nothing');
  return row;
}

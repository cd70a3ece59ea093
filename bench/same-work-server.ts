/**
 * The same-work ceiling: a bare Fastify + `pg` server that does what the product does for four
 * calls, with the product's own SQL as Drizzle sent it before this work (login: stamp, then rated
 * events and feedback topics at once; history: account, then count and page at once; events: the
 * throttle's count, then the page joined to its sessions (as Drizzle sends it since the session
 * telemetry); minting: account, set, state, credit, then a transaction of two inserts), waited on
 * in the same order,
 * and answers the same JSON. No validation, no ORM, no helmet/CORS/rate-limit plugins, no request
 * logging: what the product costs above this is our stack. Login, history, the events page and
 * minting now do the same work in fewer round trips (one, one, one and three; the events page also
 * lets PostgreSQL build its JSON), so the product can beat this ceiling.
 *
 * Usage: tsx bench/same-work-server.ts DATABASE_URL ADMIN_SECRET  (prints `Listening on http://…`)
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

const [url, adminSecret] = process.argv.slice(2);
if (!url || !adminSecret) throw new Error('usage: same-work-server.ts DATABASE_URL ADMIN_SECRET');

/** The product's pool size (server/db/client.ts). */
const pool = new pg.Pool({ connectionString: url, max: 10 });
pool.on('error', () => undefined);

const FREE_LIMIT = 5;
const PRO_LIMIT = 100;

export const SQL = {
  stampLogin: `update "accounts" set "last_login_at" = now() where "accounts"."email" = $1 returning "id", "email", "subscription_id", "session_limit", "sessions_used", "rated_interviews", "created_at", "last_login_at", (select p.last_login_at from accounts p where p.id = "accounts"."id")`,
  ratedEvents: `select "events"."question_set_id", "events"."topic", "events"."question_set_index", "events"."score", "events"."event_timestamp", "question_sets"."id" from "events" left join "question_sets" on "question_sets"."id" = "events"."question_set_id" where ("events"."account_id" = $1 and "events"."event_type" = $2 and "events"."rating_status" = $3) order by "events"."id" asc`,
  feedbackTopics: `select distinct "topic" from "feedback" where "feedback"."account_id" = $1`,
  account: `select "id", "email", "subscription_id", "session_limit", "sessions_used", "rated_interviews", "created_at", "last_login_at" from "accounts" where "accounts"."email" = $1 limit $2`,
  ratingsCount: `select count(*) from "events" where ("events"."account_id" = $1 and "events"."event_type" = $2 and "events"."rating_status" = $3)`,
  ratingsPage: `select "id", "topic", "question_set_index", "score", "event_timestamp", "duration_seconds", "rating_markdown", "rating_breakdown" from "events" where ("events"."account_id" = $1 and "events"."event_type" = $2 and "events"."rating_status" = $3) order by "events"."id" desc limit $4 offset $5`,
  adminThrottle: `select "hits" from "rate_limits" where ("rate_limits"."key" = $1 and "rate_limits"."window_ends_at" > now())`,
  // The events page with each event's session (a left join; the session's telemetry goes with the event).
  events: `select "events"."id", "events"."event_type", "events"."account_id", "events"."user_email", "events"."question_set_id", "events"."topic", "events"."question_set_index", "events"."session_id", "events"."event_timestamp", "events"."duration_seconds", "events"."transcript", "events"."rating_status", "events"."rating_markdown", "events"."rating_breakdown", "events"."score", "events"."rater", "events"."rating_attempts", "events"."next_rating_at", "interview_sessions"."id", "interview_sessions"."account_id", "interview_sessions"."question_set_id", "interview_sessions"."transport", "interview_sessions"."token_hash", "interview_sessions"."status", "interview_sessions"."turns", "interview_sessions"."turn_calls", "interview_sessions"."created_at", "interview_sessions"."finished_at", "interview_sessions"."refunded_at", "interview_sessions"."resumes", "interview_sessions"."token_issued_at", "interview_sessions"."connected_at", "interview_sessions"."ended_at", "interview_sessions"."end_reason", "interview_sessions"."end_detail", "interview_sessions"."input", "interview_sessions"."usage", "interview_sessions"."estimated_cost_usd", "interview_sessions"."errors", "interview_sessions"."error_count" from "events" left join "interview_sessions" on "interview_sessions"."id" = "events"."session_id" order by "events"."id" desc limit $1`,
  eventsBefore: `select "events"."id", "events"."event_type", "events"."account_id", "events"."user_email", "events"."question_set_id", "events"."topic", "events"."question_set_index", "events"."session_id", "events"."event_timestamp", "events"."duration_seconds", "events"."transcript", "events"."rating_status", "events"."rating_markdown", "events"."rating_breakdown", "events"."score", "events"."rater", "events"."rating_attempts", "events"."next_rating_at", "interview_sessions"."id", "interview_sessions"."account_id", "interview_sessions"."question_set_id", "interview_sessions"."transport", "interview_sessions"."token_hash", "interview_sessions"."status", "interview_sessions"."turns", "interview_sessions"."turn_calls", "interview_sessions"."created_at", "interview_sessions"."finished_at", "interview_sessions"."refunded_at", "interview_sessions"."resumes", "interview_sessions"."token_issued_at", "interview_sessions"."connected_at", "interview_sessions"."ended_at", "interview_sessions"."end_reason", "interview_sessions"."end_detail", "interview_sessions"."input", "interview_sessions"."usage", "interview_sessions"."estimated_cost_usd", "interview_sessions"."errors", "interview_sessions"."error_count" from "events" left join "interview_sessions" on "interview_sessions"."id" = "events"."session_id" where "events"."id" < $1 order by "events"."id" desc limit $2`,
  questionSet: `select "id", "name", "index", "is_premium", "requires_feedback", "questions", "instructions", "model_answers" from "question_sets" where "question_sets"."id" = $1 limit $2`,
  spendCredit: `update "accounts" set "sessions_used" = "accounts"."sessions_used" + 1 where ("accounts"."id" = $1 and "accounts"."sessions_used" < coalesce("accounts"."session_limit", case when "accounts"."subscription_id" is not null then $2::int else $3::int end)) returning "id"`,
  insertSession: `insert into "interview_sessions" ("id", "account_id", "question_set_id", "transport", "token_hash", "status", "turns", "turn_calls", "created_at", "finished_at", "refunded_at") values ($1, $2, $3, $4, $5, default, default, default, default, default, default)`,
  insertStart: `insert into "events" ("id", "event_type", "account_id", "user_email", "question_set_id", "topic", "question_set_index", "session_id", "event_timestamp", "duration_seconds", "transcript", "rating_status", "rating_markdown", "score", "rater", "rating_attempts", "next_rating_at") values (default, $1, $2, $3, $4, $5, $6, $7, default, default, default, default, default, default, default, default, default)`,
};

interface AccountRow {
  id: number;
  email: string;
  subscription_id: string | null;
}

const subscriptionOf = (account: AccountRow) =>
  account.subscription_id ? { type: 'pro', status: 'active' } : { type: 'free', status: 'active' };

async function userState(account: AccountRow) {
  const [rated, given] = await Promise.all([
    pool.query({ text: SQL.ratedEvents, values: [account.id, 'RATE', 'rated'], rowMode: 'array' }),
    pool.query<{ topic: string }>(SQL.feedbackTopics, [account.id]),
  ]);
  const topicLevels: Record<string, number> = {};
  const progress: unknown[] = [];
  for (const [, topic, setIndex, score, at, currentSetId] of rated.rows as Array<
    [number | null, string | null, number | null, number | null, Date, number | null]
  >) {
    if (topic === null || setIndex === null) continue;
    const index = setIndex + 1;
    topicLevels[topic] = Math.max(topicLevels[topic] ?? 0, index);
    if (currentSetId !== null) progress.push({ questionSetId: currentSetId, topic, index, score, completedAt: at.toISOString() });
  }
  const topicFeedback: Record<string, boolean> = {};
  for (const row of given.rows) topicFeedback[row.topic] = true;
  return { subscription: subscriptionOf(account), progress, topicLevels, topicFeedback };
}

async function findAccount(email: string): Promise<AccountRow | null> {
  const result = await pool.query<AccountRow>(SQL.account, [email, 1]);
  return result.rows[0] ?? null;
}

const app = Fastify({ logger: false });

app.post('/user/login', async (request, reply) => {
  const { email } = request.body as { email: string };
  // Array rows: the sub-select's column has the same name as last_login_at.
  const stamped = await pool.query({ text: SQL.stampLogin, values: [email.trim().toLowerCase()], rowMode: 'array' });
  // The seeded users all exist; a new account (an insert in the product) is not measured.
  const fields = stamped.rows[0] as unknown[] | undefined;
  if (!fields) return reply.code(404).send({ error: 'not seeded' });
  const row: AccountRow = { id: fields[0] as number, email: fields[1] as string, subscription_id: fields[2] as string | null };
  const previous = fields[8];
  return { ...(await userState(row)), isNewUser: previous === null };
});

app.get('/user/ratings', async (request, reply) => {
  const email = String(request.headers['x-user-email'] ?? '');
  const query = request.query as { page?: string; limit?: string };
  const page = Number(query.page ?? 1);
  const limit = Number(query.limit ?? 9);
  const account = await findAccount(email);
  if (!account) return reply.code(401).send({ error: 'unknown' });
  const values = [account.id, 'RATE', 'rated'];
  const [total, rows] = await Promise.all([
    pool.query<{ count: string }>(SQL.ratingsCount, values),
    pool.query(SQL.ratingsPage, [...values, limit, (page - 1) * limit]),
  ]);
  const totalCount = Number(total.rows[0]?.count ?? 0);
  const totalPages = Math.ceil(totalCount / limit);
  return {
    ratings: rows.rows.map((r) => ({
      id: r.id,
      topic: r.topic,
      questionSetIndex: r.question_set_index,
      score: r.score,
      eventTimestamp: (r.event_timestamp as Date).toISOString(),
      durationSeconds: r.duration_seconds,
      ratingMarkdown: r.rating_markdown,
      breakdown: r.rating_breakdown,
    })),
    pagination: { page, limit, totalCount, totalPages, hasNextPage: page < totalPages, hasPreviousPage: page > 1 },
  };
});

app.get('/api/events', async (request, reply) => {
  // The product's admin check: the secret, then the throttle's count for the address.
  if (request.headers['x-admin-secret'] !== adminSecret) return reply.code(401).send({ error: 'wrong' });
  await pool.query(SQL.adminThrottle, [`admin:${request.ip}`]);
  const before = (request.query as { before?: string }).before;
  // Array rows: the events and sessions tables share column names (as Drizzle reads a join).
  const rows =
    before === undefined
      ? await pool.query({ text: SQL.events, values: [100], rowMode: 'array' })
      : await pool.query({ text: SQL.eventsBefore, values: [Number(before), 100], rowMode: 'array' });
  return (rows.rows as unknown[][]).map((r) => ({
    id: r[0],
    userEmail: r[3],
    eventType: r[1],
    topic: r[5],
    questionSetIndex: r[6],
    eventTimestamp: (r[8] as Date).toISOString(),
    durationSeconds: r[9],
    transcript: r[10],
    ratingMarkdown: r[12],
    ratingBreakdown: r[13],
    score: r[14],
    rater: r[15],
    session: r[18] === null ? null : telemetry(r.slice(18)),
  }));
});

const iso = (value: unknown) => (value === null ? null : (value as Date).toISOString());

/** server/services/session-telemetry.ts toTelemetry, on the session's columns in table order. */
function telemetry(s: unknown[]) {
  const [
    id,
    ,
    ,
    transport,
    ,
    status,
    turns,
    ,
    createdAt,
    ,
    ,
    resumes,
    ,
    connectedAt,
    endedAt,
    endReason,
    endDetail,
    input,
    usage,
    estimatedCostUsd,
    errors,
    errorCount,
  ] = s;
  const started = (createdAt as Date).getTime();
  const connected = connectedAt === null ? null : (connectedAt as Date).getTime();
  const ended = endedAt === null ? null : (endedAt as Date).getTime();
  return {
    sessionId: id,
    transport,
    input,
    status,
    startedAt: iso(createdAt),
    connectedAt: iso(connectedAt),
    endedAt: iso(endedAt),
    connectMs: connected === null ? null : Math.max(0, connected - started),
    lengthSeconds: connected === null || ended === null ? null : Math.max(0, Math.round((ended - connected) / 1000)),
    endReason,
    endDetail,
    candidateTurns: (turns as Array<{ role: string }>).filter((entry) => entry.role === 'interviewee').length,
    resumes,
    usage,
    estimatedCostUsd,
    errorCount,
    errors,
  };
}

app.get('/interview/token', async (request, reply) => {
  const email = String(request.headers['x-user-email'] ?? '');
  const setId = Number((request.query as { questionSetId?: string }).questionSetId);
  const account = await findAccount(email);
  if (!account) return reply.code(401).send({ error: 'unknown' });
  const set = (await pool.query<{ id: number; name: string; index: number }>(SQL.questionSet, [setId, 1])).rows[0];
  if (!set) return reply.code(404).send({ error: 'no set' });
  // The tile rules need the user's state (the bench mints an unlocked first set).
  await userState(account);
  const spent = await pool.query(SQL.spendCredit, [account.id, PRO_LIMIT, FREE_LIMIT]);
  if (spent.rowCount !== 1) return reply.code(402).send({ error: 'out of credits' });
  const sessionId = randomUUID();
  const token = {
    transport: 'browser-speech',
    sessionId,
    client_secret: { value: `bs_${randomBytes(32).toString('base64url')}`, expires_at: Math.floor(Date.now() / 1000) + 3600 },
  };
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(SQL.insertSession, [
      sessionId,
      account.id,
      set.id,
      token.transport,
      createHash('sha256').update(token.client_secret.value).digest('hex'),
    ]);
    await client.query(SQL.insertStart, ['START', account.id, account.email, set.id, set.name, set.index - 1, sessionId]);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
  return token;
});

const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`Listening on ${address}`);
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(() => pool.end())
      .then(() => process.exit(0)),
);

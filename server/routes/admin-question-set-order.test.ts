/**
 * The tile order in the editor over HTTP on both databases: indexes bounded by what a catalogue
 * holds, sets inserted anywhere, moved, and deleted without leaving a gap, with what candidates
 * earned staying on the set rather than on its number.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, FIXTURE_SETS, login } from '../../test-support/fixtures';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';
import { importCatalogue } from '../services/catalogue';

const modelAnswers = (n: number) =>
  Array.from({ length: n }, (_, i) => `### ${i + 1}. Question ${i + 1}?\n\nAn answer.\n\n**Key points:** one idea; another idea.`).join(
    '\n\n',
  );

const setAt = (name: string, index: number) => ({
  name,
  index,
  isPremium: false,
  requiresFeedback: false,
  instructions: '',
  questions: ['Question 1?'],
  modelAnswers: modelAnswers(1),
});

interface Listed {
  id: number;
  name: string;
  index: number;
  archivedAt: string | null;
}

describeDatabases('question-set tile order', (database) => {
  let t: TestApp;
  const admin = <T>(method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, body?: unknown) =>
    call<T>(t.app, method, url, { admin: t.config.adminSecret, body });
  /** Active sets as "index:name" in tile order, as the editor lists them. */
  const order = async () =>
    (await admin<Listed[]>('GET', '/api/admin/question-sets')).body.filter((s) => !s.archivedAt).map((s) => `${s.index}:${s.name}`);
  /** What candidates see. */
  const catalogue = async () => (await call<Array<{ id: number; name: string; index: number }>>(t.app, 'GET', '/api/question-sets')).body;
  const idOf = async (name: string) =>
    (await admin<Listed[]>('GET', '/api/admin/question-sets')).body.find((s) => s.name === name && !s.archivedAt)?.id ?? 0;

  beforeAll(async () => {
    t = await createTestApp({ database, questionSets: FIXTURE_SETS.map((s, i) => ({ ...s, name: `${s.name} ${i + 1}` })) });
  }, 300_000);
  afterAll(() => t.close());

  it('bounds the index to what a catalogue holds, in the contract and in the service', async () => {
    expect(await admin('POST', '/api/admin/question-sets', setAt('Huge', 2147483647))).toMatchObject({
      status: 400,
      body: { error: 'index: index must be at most 500.' },
    });
    expect(await admin('PUT', `/api/admin/question-sets/${await idOf('JavaScript 1')}/position`, { index: 501 })).toMatchObject({
      status: 400,
      body: { error: 'index: index must be at most 500.' },
    });
    expect(await admin('POST', '/api/admin/question-sets', setAt('Far', 7))).toMatchObject({
      status: 400,
      body: {
        error:
          'The index 7 is past the end: there are 4 sets, so this set can take an index from 1 to 5. Sets unlock one index after another, so the tile order has no gaps.',
      },
    });
    expect(await admin('PUT', `/api/admin/question-sets/${await idOf('JavaScript 1')}`, setAt('JavaScript 1', 5))).toMatchObject({
      status: 400,
      body: {
        error:
          'The index 5 is past the end: there are 4 sets, so this set can take an index from 1 to 4. Sets unlock one index after another, so the tile order has no gaps.',
      },
    });
    expect(await order()).toEqual(['1:JavaScript 1', '2:JavaScript 2', '3:Behavioural 3', '4:System Design 4']);
  });

  it('inserts a new set at any place; the later sets move down and candidates see it at once', async () => {
    await catalogue(); // fills the candidates' cache first
    const created = await admin<Listed>('POST', '/api/admin/question-sets', setAt('Git', 2));
    expect(created).toMatchObject({ status: 201, body: { name: 'Git', index: 2 } });
    expect(await order()).toEqual(['1:JavaScript 1', '2:Git', '3:JavaScript 2', '4:Behavioural 3', '5:System Design 4']);
    expect((await catalogue()).map((s) => `${s.index}:${s.name}`)).toEqual([
      '1:JavaScript 1',
      '2:Git',
      '3:JavaScript 2',
      '4:Behavioural 3',
      '5:System Design 4',
    ]);
    // At the end, one past the last set.
    expect(await admin('POST', '/api/admin/question-sets', setAt('Docker', 6))).toMatchObject({ status: 201, body: { index: 6 } });
  });

  it('moves a set up or down; the sets in between shift by one', async () => {
    const moved = await admin<Listed[]>('PUT', `/api/admin/question-sets/${await idOf('Docker')}/position`, { index: 1 });
    expect(moved.status).toBe(200);
    expect(moved.body.filter((s) => !s.archivedAt).map((s) => `${s.index}:${s.name}`)).toEqual([
      '1:Docker',
      '2:JavaScript 1',
      '3:Git',
      '4:JavaScript 2',
      '5:Behavioural 3',
      '6:System Design 4',
    ]);
    await admin('PUT', `/api/admin/question-sets/${await idOf('Docker')}/position`, { index: 6 });
    expect(await order()).toEqual(['1:JavaScript 1', '2:Git', '3:JavaScript 2', '4:Behavioural 3', '5:System Design 4', '6:Docker']);
    expect(await admin('PUT', '/api/admin/question-sets/999999/position', { index: 1 })).toMatchObject({
      status: 404,
      body: { error: 'This question set does not exist.' },
    });
  });

  it("keeps a candidate's level and history on the set they completed when its number moves", async () => {
    const email = 'mover@example.com';
    await login(t.app, email);
    const setId = await idOf('JavaScript 1');
    expect((await call(t.app, 'GET', `/interview/token?questionSetId=${setId}`, { email })).status).toBe(200);
    // Every question of the set answered: the level is completed (docs/product-rules.md, Topic tiles).
    const { questions } = (await call<Array<{ id: number; questions: string[] }>>(t.app, 'GET', '/api/question-sets')).body.find(
      (s) => s.id === setId,
    ) ?? { questions: [] };
    const transcripts = questions.flatMap((question) => [
      { role: 'interviewer', transcript: question },
      { role: 'interviewee', transcript: 'A closure keeps access to its outer scope.' },
    ]);
    expect(
      (await call(t.app, 'POST', '/interview/rate-transcript', { email, body: { transcripts, durationSeconds: 30, questionSetId: setId } }))
        .status,
    ).toBe(200);
    expect(
      (
        await call(t.app, 'POST', '/user/feedback', {
          email,
          body: { feedback: 'Clear questions, thank you.', topic: 'JavaScript 1', questionIndex: 1 },
        })
      ).status,
    ).toBe(201);

    // A new first set: the completed one is now number 2.
    expect((await admin('POST', '/api/admin/question-sets', setAt('Warm-up', 1))).status).toBe(201);
    const state = await call<{ topicLevels: Record<string, number>; progress: Array<{ questionSetId: number; index: number }> }>(
      t.app,
      'POST',
      '/user/login',
      { body: { email } },
    );
    expect(state.body.topicLevels).toEqual({ 'JavaScript 1': 2 });
    expect(state.body.progress).toEqual([expect.objectContaining({ questionSetId: setId, index: 2 })]);
    const history = await call<{ ratings: Array<{ topic: string; questionSetIndex: number }> }>(t.app, 'GET', '/user/ratings?page=1', {
      email,
    });
    expect(history.body.ratings.map((r) => [r.topic, r.questionSetIndex])).toEqual([['JavaScript 1', 1]]);
    const given = await admin<Array<{ topic: string; questionIndex: number }>>('GET', '/api/feedback');
    expect(given.body.find((f) => f.topic === 'JavaScript 1')?.questionIndex).toBe(2);
  });

  it('tries an answer against a drafted set with the rater, saving nothing', async () => {
    const eventsBefore = (await admin<unknown[]>('GET', '/api/events?limit=500')).body.length;
    const draft = {
      ...setAt('Closures draft', 1),
      questions: ['What is a closure?'],
      modelAnswers:
        '### 1. What is a closure?\n\nA function with its scope.\n\n**Key points:** keeps access to its outer scope; created when the function is defined',
    };
    const tried = await admin<{ question: string; covered: string[]; missed: string[]; evidence: string[]; score: number; rater: string }>(
      'POST',
      '/api/admin/question-sets/try-answer',
      {
        set: draft,
        questionNumber: 1,
        answer: 'A closure is a function that keeps access to its outer scope.',
      },
    );
    expect(tried.status).toBe(200);
    expect(tried.body).toMatchObject({
      question: 'What is a closure?',
      rater: 'rubric',
      covered: ['keeps access to its outer scope'],
      missed: ['created when the function is defined'],
    });
    expect(tried.body.evidence[0]).toContain('keeps access to its outer scope');
    expect(tried.body.score).toBeGreaterThan(0);
    expect(
      await admin('POST', '/api/admin/question-sets/try-answer', { set: draft, questionNumber: 2, answer: 'Anything.' }),
    ).toMatchObject({
      status: 400,
      body: { error: 'This set has no question 2.' },
    });
    // Nothing stored: no event, and the set list is as it was.
    expect((await admin<unknown[]>('GET', '/api/events?limit=500')).body.length).toBe(eventsBefore);
    expect((await order()).some((s) => s.includes('Closures draft'))).toBe(false);
  });
});

// On its own app, so it needs no set an earlier test inserted or moved: it fails only on a gap.
describeDatabases('deleting a set in the middle of the tile order', (database) => {
  let t: TestApp;
  const admin = <T>(method: 'GET' | 'DELETE', url: string) => call<T>(t.app, method, url, { admin: t.config.adminSecret });
  const sets = async () => (await admin<Listed[]>('GET', '/api/admin/question-sets')).body.filter((s) => !s.archivedAt);
  const order = async () => (await sets()).map((s) => `${s.index}:${s.name}`);
  const idOf = async (name: string) => (await sets()).find((s) => s.name === name)?.id ?? 0;

  beforeAll(async () => {
    t = await createTestApp({ database, questionSets: FIXTURE_SETS.map((s, i) => ({ ...s, name: `${s.name} ${i + 1}` })) });
  }, 300_000);
  afterAll(() => t.close());

  it('moves the later sets up, whether the set is deleted or archived, so no set becomes unreachable', async () => {
    // An interview of the first set: deleting it archives it.
    const email = 'deleter@example.com';
    await login(t.app, email);
    const first = await idOf('JavaScript 1');
    expect((await call(t.app, 'GET', `/interview/token?questionSetId=${first}`, { email })).status).toBe(200);
    const transcripts = [
      { role: 'interviewer', transcript: 'What is a closure?' },
      { role: 'interviewee', transcript: 'A closure keeps access to its outer scope.' },
    ];
    const rating = await call(t.app, 'POST', '/interview/rate-transcript', {
      email,
      body: { transcripts, durationSeconds: 30, questionSetId: first },
    });
    expect(rating.status).toBe(200);

    expect(await order()).toEqual(['1:JavaScript 1', '2:JavaScript 2', '3:Behavioural 3', '4:System Design 4']);
    expect(await admin('DELETE', `/api/admin/question-sets/${await idOf('Behavioural 3')}`)).toMatchObject({
      status: 200,
      body: { outcome: 'deleted' },
    });
    expect(await order()).toEqual(['1:JavaScript 1', '2:JavaScript 2', '3:System Design 4']);
    // Interviews refer to this one: archived, and the gap closes all the same.
    expect(await admin('DELETE', `/api/admin/question-sets/${first}`)).toMatchObject({ status: 200, body: { outcome: 'archived' } });
    expect(await order()).toEqual(['1:JavaScript 2', '2:System Design 4']);
    const catalogue = await call<Array<{ index: number }>>(t.app, 'GET', '/api/question-sets');
    expect(catalogue.body.map((s) => s.index)).toEqual([1, 2]);
  });
});

// docs/product-rules.md, Admin area: "edited here" marks the sets an admin edited, not the sets a
// move, an insertion or a deletion merely shifted; those are still kept from `catalogue:sync`.
describeDatabases('"edited here" after a move', (database) => {
  let t: TestApp;
  const files = FIXTURE_SETS.map((s, i) => ({ ...s, name: `${s.name} ${i + 1}` }));
  const admin = <T>(method: 'GET' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
    call<T>(t.app, method, url, { admin: t.config.adminSecret, body });
  const edited = async () =>
    Object.fromEntries(
      (await admin<Array<Listed & { editedAt: string | null }>>('GET', '/api/admin/question-sets')).body
        .filter((s) => !s.archivedAt)
        .map((s) => [`${s.index}:${s.name}`, s.editedAt !== null]),
    );
  const idOf = async (name: string) =>
    (await admin<Listed[]>('GET', '/api/admin/question-sets')).body.find((s) => s.name === name && !s.archivedAt)?.id ?? 0;

  beforeAll(async () => {
    t = await createTestApp({ database, questionSets: files });
  }, 300_000);
  afterAll(() => t.close());

  it('marks the set moved, not the sets it shifted; sync still leaves the shifted sets alone', async () => {
    expect(Object.values(await edited())).toEqual([false, false, false, false]);
    // Moving a set to its own place changes nothing.
    await admin('PUT', `/api/admin/question-sets/${await idOf('JavaScript 2')}/position`, { index: 2 });
    expect(Object.values(await edited())).toEqual([false, false, false, false]);

    expect((await admin('PUT', `/api/admin/question-sets/${await idOf('System Design 4')}/position`, { index: 1 })).status).toBe(200);
    expect(await edited()).toEqual({
      '1:System Design 4': true,
      '2:JavaScript 1': false,
      '3:JavaScript 2': false,
      '4:Behavioural 3': false,
    });
    // The files still hold the old order: every set at a new index is refused, not only the edited one.
    expect((await importCatalogue(t.db, files, false)).refused.map((s) => s.name)).toEqual([
      'System Design 4',
      'JavaScript 1',
      'JavaScript 2',
      'Behavioural 3',
    ]);

    // A deletion shifts the later sets up without marking them either.
    expect((await admin('DELETE', `/api/admin/question-sets/${await idOf('JavaScript 1')}`)).status).toBe(200);
    expect(await edited()).toEqual({ '1:System Design 4': true, '2:JavaScript 2': false, '3:Behavioural 3': false });
  });
});

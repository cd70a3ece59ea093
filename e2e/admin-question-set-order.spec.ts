/**
 * Placing the operator's own sets in Chromium against the real server (docs/product-rules.md, Admin area): a new
 * set created at place 2 is reachable at once, the arrows move a set by keyboard with the focus
 * kept on it, and deleting asks in the app's own dialog.
 */
import { expect, test } from './support/test';
import { BROWSER_LOCALE, openAdmin, recordDialogs, startAdminServer, type RunningServer } from './support/admin';
import { questionSets } from './support/app';

let server: RunningServer;

test.use(BROWSER_LOCALE);
test.beforeAll(async () => {
  server = await startAdminServer();
});
test.afterAll(async () => {
  await server?.stop();
});

const GIT_ANSWERS =
  '### 1. What does git rebase do?\n\nIt replays commits on a new base.\n\n**Key points:** replays commits; onto a new base';

test('a new set placed at 2 is set 2 for candidates; arrows move it by keyboard; delete asks in the app dialog', async ({ page }) => {
  const native = recordDialogs(page);
  const before = (await questionSets(server)).sort((a, b) => a.index - b.index);
  await openAdmin(page, server, 'question-sets');
  await page.getByRole('button', { name: 'New set' }).click();
  await page.getByLabel('Topic name').fill('Git');
  await page.getByLabel('Index').fill('2');
  await page.getByLabel('Questions (one per line)').fill('What does git rebase do?');
  await page.getByLabel(/^Model answers/).fill(GIT_ANSWERS);
  await page.getByRole('button', { name: 'Create set' }).click();
  // The message is next to the button that caused it.
  const status = page.getByRole('status');
  await expect(status).toHaveText('Saved "Git". Candidates see it now.');
  const createButton = page.getByRole('button', { name: 'Save set' });
  const [statusBox, buttonBox] = [await status.boundingBox(), await createButton.boundingBox()];
  expect(Math.abs((statusBox?.y ?? 0) - (buttonBox?.y ?? 0))).toBeLessThan(120);

  let sets = (await questionSets(server)).sort((a, b) => a.index - b.index);
  expect(sets.map((s) => s.name)).toEqual([before[0]?.name, 'Git', ...before.slice(1).map((s) => s.name)]);
  expect(sets.map((s) => s.index)).toEqual(sets.map((_, i) => i + 1));

  const order = page.getByRole('list', { name: 'Tile order' });
  const up = order.getByRole('button', { name: 'Move "Git" (set 2) up' });
  await up.focus();
  await page.keyboard.press('Enter');
  await expect(order.getByRole('button', { name: 'Move "Git" (set 1) down' })).toBeFocused();
  await expect(order.getByRole('button').first()).toContainText('Set 1 · Git');
  sets = (await questionSets(server)).sort((a, b) => a.index - b.index);
  expect(sets[0]?.name).toBe('Git');
  await page.keyboard.press('Enter');
  await expect(order.getByRole('button', { name: 'Move "Git" (set 2) down' })).toBeFocused();
  await expect(page.getByRole('status')).toHaveText('Moved "Git" to place 2. Candidates see the new order now.');
  // "edited here" marks the set created and moved, not the set its moves shifted.
  await expect(order.getByRole('button', { name: /Set 2 · Git/ })).toContainText('edited here');
  const shifted = order.getByRole('button').filter({ hasText: `Set 1 · ${before[0]?.name ?? '<no set 1>'}` });
  await expect(shifted).toBeVisible();
  await expect(shifted).not.toContainText('edited here');

  await order.getByRole('button', { name: /Set 2 · Git/ }).click();
  await page.getByRole('button', { name: 'Delete set' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete question set' });
  await expect(dialog).toContainText('No interview used this set, so it is deleted for good, and the later sets move up one place.');
  await dialog.getByRole('button', { name: 'Delete set' }).click();
  await expect(page.getByRole('status')).toHaveText('Deleted "Git". The later sets moved up one place.');
  await expect(order.getByText(/edited here/)).toHaveCount(0);
  sets = (await questionSets(server)).sort((a, b) => a.index - b.index);
  expect(sets.map((s) => s.name)).toEqual(before.map((s) => s.name));
  expect(native).toEqual([]);
});

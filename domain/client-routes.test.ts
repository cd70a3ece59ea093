import { describe, expect, it } from 'vitest';
import { isClientRoute } from './client-routes';

describe('isClientRoute', () => {
  it('knows the screens and the admin pages, with or without a secret', () => {
    for (const path of [
      '/',
      '/history',
      '/history/',
      '/test/question-set-item',
      '/admin',
      '/admin/events',
      '/admin/s3cret.x',
      '/admin/emails/s3cret',
    ])
      expect(isClientRoute(path), path).toBe(true);
  });

  it('refuses every other address', () => {
    for (const path of ['/no-such-page', '/histories', '/admin/nope/s3cret', '/admin/events/a/b', '/test', '/index'])
      expect(isClientRoute(path), path).toBe(false);
  });
});

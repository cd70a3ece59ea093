import { describe, expect, it } from 'vitest';
import { isMixedScriptEmail } from './email-scripts';

describe('isMixedScriptEmail', () => {
  it('flags a part that mixes writing systems', () => {
    expect(isMixedScriptEmail('v\u0456ctim@example.com')).toBe(true); // Cyrillic і among Latin letters
    expect(isMixedScriptEmail('victim@ex\u0430mple.com')).toBe(true); // Cyrillic а in the domain
    expect(isMixedScriptEmail('\u03bfmega@example.com')).toBe(true); // Greek ο
  });

  it('leaves one script per part alone, digits and marks included', () => {
    expect(isMixedScriptEmail('victim@example.com')).toBe(false);
    expect(isMixedScriptEmail('иван@example.com')).toBe(false);
    expect(isMixedScriptEmail('иван@пример.рф')).toBe(false);
    expect(isMixedScriptEmail('josé.2024@example.com')).toBe(false);
    expect(isMixedScriptEmail('やまだ太郎@example.jp')).toBe(false);
  });
});

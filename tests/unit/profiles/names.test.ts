import { describe, expect, it } from 'vitest';
import { cleanName } from '../../../server/src/profiles/names.js';

describe('names', () => {
  it('are trimmed, and may be any script, emoji or punctuation', () => {
    expect(cleanName('  Lydia  ', 'input.name')).toBe('Lydia');
    expect(cleanName('Ἰωάννης', 'input.name')).toBe('Ἰωάννης');
    expect(cleanName('🙏', 'input.name')).toBe('🙏');
  });

  it.each(['\u200b', '\u200b\u200c\u2060', '\ufeff', ' \u200d '])('refuse %j, which shows as nothing', (name) => {
    expect(() => cleanName(name, 'input.name')).toThrow(/visible character|1 to 50/);
  });

  it('name the field in the message', () => {
    expect(() => cleanName('\u200b', 'input.first')).toThrow('first must contain a visible character');
  });
});

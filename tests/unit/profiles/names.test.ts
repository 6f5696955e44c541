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

  it('are stored in NFC', () => {
    expect(cleanName('Zoe\u0308', 'input.name')).toBe('Zoë');
  });

  it.each([
    ['\u202Eevil', 'DIRECTION_CONTROL'],
    ['\u2067Grace', 'DIRECTION_CONTROL'],
    ['Grace\u2069', 'DIRECTION_CONTROL'],
    ['Ruth\u061C', 'DIRECTION_CONTROL'],
    ['\u200Eme', 'DIRECTION_CONTROL'],
    ['Admin\u200B', 'INVISIBLE_CHARACTER'],
    ['Ad\u200Cmin', 'INVISIBLE_CHARACTER'],
    ['Ad\u200Dmin', 'INVISIBLE_CHARACTER'],
    ['A\u2060dmin', 'INVISIBLE_CHARACTER'],
    ['Ad\u00ADmin', 'INVISIBLE_CHARACTER'],
    ['\u3164Admin', 'INVISIBLE_CHARACTER'],
    [`q${'\u0300'.repeat(4)}`, 'STACKED_MARKS'],
    [`Z${'\u0301'.repeat(49)}`, 'STACKED_MARKS'],
  ])('refuse %j with the reason %s', (name, reason) => {
    expect(() => cleanName(name, 'input.name')).toThrow(
      expect.objectContaining({
        extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', field: 'input.name', reason }),
      }),
    );
  });

  it.each([`a${'\u0300'.repeat(3)}`, '👩\u200D💻 Dev', '👍🏽\u200D🔥', 'می\u200Cخواهم', 'क्षत्रिय', '1️⃣ First'])(
    'accept %j: up to three marks, emoji joiners and the non-joiner of scripts that spell with it',
    (name) => {
      expect(cleanName(name, 'input.name')).toBe(name.normalize('NFC'));
    },
  );
});

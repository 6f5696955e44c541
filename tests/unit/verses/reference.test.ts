import { describe, expect, it } from 'vitest';
import { parseReference } from '../../../server/src/verses/reference.js';

describe('parseReference', () => {
  it.each([
    ['John 3:16', 'John.3.16'],
    ['Jn 3:16', 'John.3.16'],
    ['1 Cor 13:4', '1Cor.13.4'],
    ['1 Corinthians 13:4', '1Cor.13.4'],
    ['Hebrews 3:4', 'Heb.3.4'],
    ['heb 3:4', 'Heb.3.4'],
    ['Ps 23:1', 'Ps.23.1'],
    ['Psalm 23:1', 'Ps.23.1'],
    ['Song of Solomon 2:4', 'Song.2.4'],
    ['Jude 3', 'Jude.1.3'],
    ['  Rev 22:21  ', 'Rev.22.21'],
  ])('reads %j as %s', async (written, osis) => {
    expect(await parseReference(written)).toBe(osis);
  });

  it.each(['Hezekiah 3:4', 'hello', 'John 99:1'])('returns null for %j, which names no verse', async (written) => {
    expect(await parseReference(written)).toBeNull();
  });

  it.each(['John 3', 'John 3:16-18', 'John 3:16, 18'])('rejects %j: one verse is expected', async (written) => {
    await expect(parseReference(written)).rejects.toThrow(
      expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', field: 'ref' }) }),
    );
  });

  it('rejects empty and overlong input', async () => {
    await expect(parseReference('   ')).rejects.toThrow(/verse reference/);
    await expect(parseReference(`John 3:16 ${'x'.repeat(100)}`)).rejects.toThrow(/verse reference/);
  });
});

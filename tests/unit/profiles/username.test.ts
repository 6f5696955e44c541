import { describe, expect, it } from 'vitest';
import {
  asciiInitial,
  generateUsername,
  isReservedUsername,
  normalizeChosenUsername,
  PLAIN_DRAWS,
} from '../../../server/src/profiles/username.js';
import { seededRandom } from '../../support/random.js';

const GENERATED = /^user(\d{3,4})([0-9a-f])([a-z0-9])$/;

describe('generated usernames', () => {
  it("follow the original's rule: user + 100..1098 + first of the id + first of the name, lowercased", () => {
    expect(generateUsername('A1B2C3D4-0000-4000-8000-000000000000', 'Grace', 0, () => 0)).toBe('user100ag');
    expect(generateUsername('f0000000-0000-4000-8000-000000000000', 'Zoe', 0, () => 0.999_999_9)).toBe('user1098fz');
  });

  it('stay within the pattern and the 100..1098 range over many draws', () => {
    const random = seededRandom(20261121);
    const numbers = new Set<number>();
    for (let index = 0; index < 20_000; index += 1) {
      const uid = crypto.randomUUID();
      const name = generateUsername(uid, 'Ruth', 0, random);
      const match = GENERATED.exec(name);
      expect(match, name).not.toBeNull();
      const number = Number(match?.[1]);
      expect(number).toBeGreaterThanOrEqual(100);
      expect(number).toBeLessThanOrEqual(1098);
      expect(match?.[2]).toBe(uid.charAt(0));
      numbers.add(number);
    }
    expect(Math.min(...numbers)).toBe(100);
    expect(Math.max(...numbers)).toBe(1098);
    expect(numbers.size).toBe(999);
  });

  it('never spell a staff word, digits read as letters (user574 + f + f is "userstaff")', () => {
    const random = seededRandom(11);
    for (let draw = 0; draw < 2_000; draw += 1) {
      const name = generateUsername('f0000000-0000-4000-8000-000000000000', 'Faith', draw % 12, random);
      expect(isReservedUsername(name), name).toBe(false);
    }
    const staffish = [0.475, 0.2];
    let calls = 0;
    const steered = () => staffish[calls++] ?? 0.3;
    expect(generateUsername('f0000000-0000-4000-8000-000000000000', 'Faith', 0, steered)).toBe('user299ff');
  });

  it('append two random characters from the eleventh draw on', () => {
    const random = seededRandom(7);
    expect(generateUsername('0abc', 'Ann', PLAIN_DRAWS - 1, random)).toMatch(GENERATED);
    expect(generateUsername('0abc', 'Ann', PLAIN_DRAWS, random)).toMatch(/^user\d{3,4}0a[a-z0-9]{2}$/);
  });

  it.each([
    ['Élodie', 'e'],
    ['Øystein', 'x'],
    ['Ñandú', 'n'],
    ['  mary', 'm'],
    ['3rd', '3'],
    ['李', 'x'],
    ['😀 Joy', 'x'],
    ['', 'x'],
  ])('reduce the name %j to the initial %s', (name, initial) => {
    expect(asciiInitial(name)).toBe(initial);
  });
});

describe('chosen usernames', () => {
  it('are trimmed and lowercased', () => {
    expect(normalizeChosenUsername('  Grace.Hopper_1 ')).toBe('grace.hopper_1');
  });

  it.each(['ab', 'a'.repeat(31), '.grace', '_grace', 'grace hopper', 'grâce', 'grace-hopper', 'grace@home'])(
    'reject %j',
    (username) => {
      expect(() => normalizeChosenUsername(username)).toThrow(/username must be/);
    },
  );

  it.each(['admin', 'Playground', 'support', 'lampstand'])('refuse the reserved word %j', (username) => {
    expect(() => normalizeChosenUsername(username)).toThrow(/reserved/);
  });

  it.each([
    ['badminton', 'admin'],
    ['supporter_of_all', 'support'],
    ['adm1n', 'admin'],
    ['supp0rt', 'support'],
    ['my.t34m', 'team'],
    ['s3cur1ty', 'security'],
    ['0ff1c1al', 'official'],
    ['h3lp3r', 'help'],
    ['stafford', 'staff'],
    ['m0d3rator', 'moderator'],
    ['l4mp5t4nd', 'lampstand'],
  ])('refuse %j, which holds %j anywhere, digit look-alikes read as letters', (username) => {
    expect(() => normalizeChosenUsername(username)).toThrow(/reserved/);
  });

  it('name the reason in the error', () => {
    expect(() => normalizeChosenUsername('adm1n')).toThrow(
      expect.objectContaining({ extensions: expect.objectContaining({ reason: 'RESERVED_USERNAME' }) }),
    );
  });

  it.each(['admin.', 'admin_', 'a_d_m_i_n', 'sup.port', 'lampstand.support', 'the_lampstand', 'site.admin.team'])(
    'refuse %j, a reserved word behind dots, underscores or other words',
    (username) => {
      expect(() => normalizeChosenUsername(username)).toThrow(/reserved/);
    },
  );

  it.each(['grace.hopper', 'lamp.maker', 'psalm23', 'mary_m'])('accept %j, an ordinary name', (username) => {
    expect(normalizeChosenUsername(username)).toBe(username);
  });
});

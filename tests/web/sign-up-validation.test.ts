import { describe, expect, it } from 'vitest';
import { birthdayProblem, emailProblem } from '../../web/src/lib/validation';

describe("the sign-up form's checks, by the server's rules", () => {
  const today = '2026-11-27';

  it('takes an empty birthday (it is optional) and one at least 13 years back', () => {
    expect(birthdayProblem('', today)).toBeNull();
    expect(birthdayProblem('2013-11-27', today)).toBeNull();
  });

  it.each([
    ['2013-11-28', 'You must be at least 13 years old to join.'],
    ['2026-11-27', 'Your birthday must be in the past.'],
    ['2026-02-30', 'Enter a real date.'],
    // The year 0 is no date to the server: the form once let it through.
    ['0000-01-01', 'Enter a real date.'],
  ])('refuses the birthday %j as the server does', (birthday, words) => {
    expect(birthdayProblem(birthday, today)).toBe(words);
  });

  it('asks for the shape of address the server takes', () => {
    expect(emailProblem(' grace@example.com ')).toBeNull();
    expect(emailProblem('grace@example')).toBe('Enter an email address like name@example.com.');
    expect(emailProblem('')).toBe('Enter your email address.');
  });
});

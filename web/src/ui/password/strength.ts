import { FAITH_WORDS } from '@rules/faith-words';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, commonPasswords, firstNames, translations } from 'virtual:password-dictionaries';

/** How strong a password looks to an attacker's guessing (0 weakest … 4 strongest). */
export interface Strength {
  score: 0 | 1 | 2 | 3 | 4;
  /** What to do about it, in a sentence, or null. */
  advice: string | null;
}

const zxcvbn = new ZxcvbnFactory({
  translations,
  graphs: adjacencyGraphs,
  // The lists are cut to fit a sign-up page (web/vite.config.ts); faith words are the first
  // guesses against a faith app's members.
  dictionary: { 'passwords-common': commonPasswords, 'firstnames-en': firstNames, faith: [...FAITH_WORDS] },
});

/** Rates `password`; `userInputs` (name, email) count as easy guesses. */
export function rate(password: string, userInputs: string[]): Strength {
  const result = zxcvbn.check(password, userInputs);
  return { score: result.score, advice: result.feedback.warning ?? result.feedback.suggestions[0] ?? null };
}

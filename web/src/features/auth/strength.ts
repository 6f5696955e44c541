import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as englishDictionary, translations } from '@zxcvbn-ts/language-en';

/** How strong a password looks to an attacker's guessing (0 weakest … 4 strongest). */
export interface Strength {
  score: 0 | 1 | 2 | 3 | 4;
  /** What to do about it, in a sentence, or null. */
  advice: string | null;
}

const zxcvbn = new ZxcvbnFactory({
  translations,
  graphs: adjacencyGraphs,
  dictionary: { ...commonDictionary, ...englishDictionary },
});

/** Rates `password`; `userInputs` (name, email) count as easy guesses. */
export function rate(password: string, userInputs: string[]): Strength {
  const result = zxcvbn.check(password, userInputs);
  return { score: result.score, advice: result.feedback.warning ?? result.feedback.suggestions[0] ?? null };
}

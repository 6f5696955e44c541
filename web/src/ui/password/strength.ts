import { FAITH_WORDS } from '@rules/faith-words';
import { blocklistFrom, PASSWORD_REFUSAL_WORDS, passwordRefusal } from '@rules/password';
import type { PasswordRefusal } from '@rules/password';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import {
  adjacencyGraphs,
  commonPasswords,
  firstNames,
  moreBlockedPasswords,
  translations,
} from 'virtual:password-dictionaries';
import { decodeFrontCoded } from './front-coding';

/** How strong a password looks to an attacker's guessing (0 weakest … 4 strongest). */
export interface Strength {
  score: 0 | 1 | 2 | 3 | 4;
  /** What to do about it, in a sentence, or null. */
  advice: string | null;
  /** Why the server will refuse it (then the score is 0 and the advice says why), or null. */
  refused: PasswordRefusal | null;
}

const zxcvbn = new ZxcvbnFactory({
  translations,
  graphs: adjacencyGraphs,
  // The lists are cut to fit a sign-up page (web/vite.config.ts); faith words are the first
  // guesses against a faith app's members.
  dictionary: { 'passwords-common': commonPasswords, 'firstnames-en': firstNames, faith: [...FAITH_WORDS] },
});

/** The server's blocklist, whole: the ranked words the estimator knows and the rest of the list. */
const blocklist = blocklistFrom([...commonPasswords, ...decodeFrontCoded(moreBlockedPasswords)]);

/**
 * Rates `password`; `userInputs` (name, email) count as easy guesses. A password the server's
 * policy refuses (rules/password.ts) is rated 0, with the reason as the advice.
 */
export function rate(password: string, userInputs: string[]): Strength {
  const refused = passwordRefusal(password, blocklist);
  if (refused) return { score: 0, advice: PASSWORD_REFUSAL_WORDS[refused], refused };
  const result = zxcvbn.check(password, userInputs);
  return {
    score: result.score,
    advice: result.feedback.warning ?? result.feedback.suggestions[0] ?? null,
    refused: null,
  };
}

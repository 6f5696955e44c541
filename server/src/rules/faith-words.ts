/**
 * Words and phrases an attacker tries first against the members of a faith app, as passwords on
 * their own or with digits, a year or a symbol around them ("Jesus1234", "Blessed2024!"). The
 * password policy refuses them and the web's strength meter rates them weak (`@rules/faith-words`).
 */
export const FAITH_WORDS: readonly string[] = [
  'amen',
  'angel',
  'angels',
  'bible',
  'blessed',
  'blessing',
  'blessings',
  'christ',
  'christian',
  'church',
  'cross',
  'faith',
  'faithful',
  'father',
  'glory',
  'god',
  'godisgood',
  'godislove',
  'goodshepherd',
  'gospel',
  'grace',
  'hallelujah',
  'heaven',
  'holy',
  'holyspirit',
  'hope',
  'iloveyoujesus',
  'jehovah',
  'jesus',
  'jesuschrist',
  'jesusismylord',
  'jesusislord',
  'jesuslovesme',
  'jesussaves',
  'john316',
  'lampstand',
  'lord',
  'lordjesus',
  'love',
  'mercy',
  'messiah',
  'praise',
  'praisegod',
  'praisethelord',
  'prayer',
  'psalm',
  'psalms',
  'psalm23',
  'redeemed',
  'saved',
  'savior',
  'saviour',
  'scripture',
  'shepherd',
  'spirit',
  'trinity',
  'worship',
  'yahweh',
];

/** Printable ASCII: no accents to take off, and each character a grapheme cluster of its own. */
export const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** True when a password is a faith word or phrase with at most digits, spaces and symbols around it. */
export function isFaithPassword(password: string): boolean {
  // Accents are taken off first ("Jésus" is "jesus").
  const bare = PRINTABLE_ASCII.test(password) ? password : password.normalize('NFD').replace(/\p{Mark}/gu, '');
  const plain = bare.toLowerCase().replace(/[^a-z0-9]/g, '');
  const core = plain.replace(/^\d+|\d+$/g, '');
  return FAITH_WORDS.includes(core) || FAITH_WORDS.includes(plain);
}

import { beforeAll, describe, expect, it } from 'vitest';
import { UserRecord } from '../../../server/src/members/user.entity.js';
import { BillingCustomerRecord } from '../../../server/src/billing/billing.entities.js';
import { LinkRecord } from '../../../server/src/links/link.entity.js';
import { classifyRootFields } from '../../../server/src/graphql/auth.js';
import { resolvers } from '../../../server/src/app/schema.js';
import { PhotoRecord } from '../../../server/src/photos/photo.entity.js';
import { ProfileRecord } from '../../../server/src/profiles/profile.entity.js';
import { SavedVerseRecord } from '../../../server/src/saved-verses/saved-verse.entity.js';
import { VerseMailSubscriptionRecord } from '../../../server/src/verse-mail/verse-mail.entity.js';
import { startBillingApp } from '../../support/billing.js';
import { forTheFile } from '../../support/for-the-file.js';
import { GOOD_PASSWORD } from '../../support/identity.js';
import { pngImage } from '../../support/images.js';
import type { SignedUpMember } from '../../support/members.js';
import { firstError, LOGIN, ME, signUpMember } from '../../support/members.js';

const SECRET = 'an-authorization-test-secret-long-enough-for-hs256';
// With a Plus price at the fake Stripe, so that the billing mutations succeed for a member.
const billing = forTheFile(() => startBillingApp({ AUTH_JWT_SECRET: SECRET, AUTH_RATE_LIMIT_OTP: '1000' }));

/** What a mutation needs to know of the member who sends it. */
interface Caller {
  password: string;
  /** The member's link ids, in page order; there is at least one. */
  links: string[];
}

/** Every protected mutation, with arguments that succeed for a signed-in member. */
const PROTECTED_MUTATIONS: [string, (caller: Caller) => string][] = [
  [
    'updateProfile',
    () => 'mutation { updateProfile(input: { name: "Changed", theme: darkTheme, isPublic: false }) { name } }',
  ],
  ['changeUsername', () => 'mutation { changeUsername(username: "taken.over") { username } }'],
  ['completeWelcome', () => 'mutation { completeWelcome { welcome } }'],
  ['updatePrayerSettings', () => 'mutation { updatePrayerSettings(input: { enabled: true }) { enabled } }'],
  ['markPrayerRequestsRead', () => 'mutation { markPrayerRequestsRead }'],
  ['pinVerse', () => 'mutation { pinVerse(ref: "John 3:16") { versePinned } }'],
  ['unpinVerse', () => 'mutation { unpinVerse { versePinned } }'],
  ['saveVerse', () => 'mutation { saveVerse(ref: "John 3:16") { savedAt } }'],
  ['unsaveVerse', () => 'mutation { unsaveVerse(verseId: "John.3.16") }'],
  [
    'subscribeVerseMail',
    () => 'mutation { subscribeVerseMail(input: { hour: 7, timeZone: "Europe/Oslo" }) { enabled } }',
  ],
  ['unsubscribeVerseMail', () => 'mutation { unsubscribeVerseMail { enabled } }'],
  ['addLink', () => 'mutation { addLink(input: { title: "Our church", url: "https://church.example" }) { id } }'],
  ['updateLink', ({ links }) => `mutation { updateLink(id: "${links[0] ?? ''}", input: { title: "Renamed" }) { id } }`],
  ['reorderLinks', ({ links }) => `mutation { reorderLinks(ids: ${JSON.stringify([...links].reverse())}) { id } }`],
  ['removePhoto', () => 'mutation { removePhoto { username } }'],
  ['removeLink', ({ links }) => `mutation { removeLink(id: "${links[0] ?? ''}") { id } }`],
  ['startCheckout', () => `mutation { startCheckout(priceId: "${billing.plusPrice}") { url } }`],
  ['openBillingPortal', () => 'mutation { openBillingPortal { url } }'],
  ['updateEmail', () => 'mutation { updateEmail(email: "someone.else@example.org") { pendingEmail } }'],
  [
    'changePassword',
    ({ password }) =>
      `mutation { changePassword(input: { currentPassword: "${password}", newPassword: "${NEW_PASSWORD}" }) { session { accessToken } } }`,
  ],
  ['logout', () => 'mutation { logout(scope: global) }'],
  ['deleteAccount', ({ password }) => `mutation { deleteAccount(password: "${password}") }`],
];
const NEW_PASSWORD = 'another passphrase';

/**
 * Two-factor sign-in's mutations and the password chosen after an emailed link: refused to
 * anonymous callers (tests/server/accounts/mfa.test.ts and recovery-link.test.ts cover members).
 */
const MFA_MUTATIONS: [string, string][] = [
  ['startMfaSetup', 'mutation { startMfaSetup { factorId } }'],
  ['verifyMfa', 'mutation { verifyMfa(code: "123456") { session { accessToken } } }'],
  ['disableMfa', 'mutation { disableMfa }'],
  ['generateRecoveryCodes', 'mutation { generateRecoveryCodes }'],
  ['verifyRecoveryCode', 'mutation { verifyRecoveryCode(code: "ABCD-EFGH-JKLM-NPQR") { session { accessToken } } }'],
  ['setNewPassword', 'mutation { setNewPassword(newPassword: "another passphrase") { plan } }'],
];

/** Every protected query: private to the caller, so anonymous callers are refused. */
const PROTECTED_QUERIES: [string, string][] = [
  ['subscription', '{ subscription { plan status } }'],
  ['mfaStatus', '{ mfaStatus { enabled verified } }'],
  ['myData', '{ myData }'],
  ['pageStats', '{ pageStats { views clicks } }'],
  ['savedVerses', '{ savedVerses { savedAt } }'],
  ['verseMail', '{ verseMail { enabled } }'],
  ['prayerRequests', '{ prayerRequests { id } }'],
  ['prayerSettings', '{ prayerSettings { enabled } }'],
  ['unreadPrayerRequests', '{ unreadPrayerRequests }'],
];

/**
 * Protected mutations on one of the member's prayer requests: refused here without a token;
 * tests/server/prayer-requests.test.ts shows another member's request reads as missing.
 */
const PRAYER_REQUEST_MUTATIONS: [string, string][] = [
  [
    'markPrayerRequestPrayed',
    'mutation { markPrayerRequestPrayed(id: "00000000-0000-4000-8000-000000000000") { id } }',
  ],
  ['deletePrayerRequest', 'mutation { deletePrayerRequest(id: "00000000-0000-4000-8000-000000000000") }'],
  ['reportPrayerRequest', 'mutation { reportPrayerRequest(id: "00000000-0000-4000-8000-000000000000") }'],
  [
    'replyToPrayerRequest',
    'mutation { replyToPrayerRequest(input: { id: "00000000-0000-4000-8000-000000000000", message: "Hi" }) { id } }',
  ],
];

interface Links {
  me: { profile: { links: { id: string }[] } };
}

/** The member's link ids in page order, after adding one if there is none. */
async function linksOf(token: string): Promise<string[]> {
  const read = await billing.api.graphql<Links>('{ me { profile { links { id } } } }', {}, { token });
  const links = read.data?.me.profile.links.map((link) => link.id) ?? [];
  if (links.length > 0) return links;
  const added = await billing.api.graphql<{ addLink: { id: string } }>(
    'mutation { addLink(input: { title: "Home", url: "https://home.example" }) { id } }',
    {},
    { token },
  );
  expect(added.errors, JSON.stringify(added.errors)).toBeUndefined();
  return [added.data?.addLink.id ?? ''];
}

async function snapshot(uid: string): Promise<unknown> {
  const user = await billing.api.dataSource.getRepository(UserRecord).findOneBy({ uid });
  const profile = await billing.api.dataSource.getRepository(ProfileRecord).findOneBy({ uid });
  const customer = await billing.api.dataSource.getRepository(BillingCustomerRecord).findOneBy({ uid });
  const links = await billing.api.dataSource
    .getRepository(LinkRecord)
    .find({ where: { uid }, order: { position: 'ASC' } });
  const saved = await billing.api.dataSource
    .getRepository(SavedVerseRecord)
    .find({ where: { uid }, order: { verseId: 'ASC' } });
  const verseMail = await billing.api.dataSource.getRepository(VerseMailSubscriptionRecord).findOneBy({ uid });
  const photo = await billing.api.dataSource.getRepository(PhotoRecord).findOneBy({ uid });
  return { user, profile, customer, links, saved, verseMail, photo };
}

describe('deny by default', () => {
  it('lists every root field as public or protected', () => {
    expect(classifyRootFields(resolvers)).toEqual([
      { field: 'Mutation.addLink', access: 'authorized' },
      { field: 'Mutation.changePassword', access: 'authorized' },
      { field: 'Mutation.changeUsername', access: 'authorized' },
      { field: 'Mutation.completeWelcome', access: 'authorized' },
      { field: 'Mutation.deleteAccount', access: 'authorized' },
      { field: 'Mutation.deletePrayerRequest', access: 'authorized' },
      { field: 'Mutation.disableMfa', access: 'authorized' },
      { field: 'Mutation.generateRecoveryCodes', access: 'authorized' },
      { field: 'Mutation.login', access: 'public' },
      { field: 'Mutation.logout', access: 'partial' },
      { field: 'Mutation.markPrayerRequestPrayed', access: 'authorized' },
      { field: 'Mutation.markPrayerRequestsRead', access: 'authorized' },
      { field: 'Mutation.openBillingPortal', access: 'authorized' },
      { field: 'Mutation.openRecoveryLink', access: 'public' },
      { field: 'Mutation.pinVerse', access: 'authorized' },
      { field: 'Mutation.refreshSession', access: 'public' },
      { field: 'Mutation.removeLink', access: 'authorized' },
      { field: 'Mutation.removePhoto', access: 'authorized' },
      { field: 'Mutation.reorderLinks', access: 'authorized' },
      { field: 'Mutation.replyToPrayerRequest', access: 'authorized' },
      { field: 'Mutation.reportPage', access: 'public' },
      { field: 'Mutation.reportPrayerRequest', access: 'authorized' },
      { field: 'Mutation.requestPasswordReset', access: 'public' },
      { field: 'Mutation.requestSignInLink', access: 'public' },
      { field: 'Mutation.resetPassword', access: 'public' },
      { field: 'Mutation.saveVerse', access: 'authorized' },
      { field: 'Mutation.sendPrayerRequest', access: 'public' },
      { field: 'Mutation.setNewPassword', access: 'authorized' },
      { field: 'Mutation.signInWithEmailCode', access: 'public' },
      { field: 'Mutation.signUp', access: 'public' },
      { field: 'Mutation.startCheckout', access: 'authorized' },
      { field: 'Mutation.startMfaSetup', access: 'authorized' },
      { field: 'Mutation.subscribeVerseMail', access: 'authorized' },
      { field: 'Mutation.unpinVerse', access: 'authorized' },
      { field: 'Mutation.unsaveVerse', access: 'authorized' },
      { field: 'Mutation.unsubscribeVerseMail', access: 'authorized' },
      { field: 'Mutation.updateEmail', access: 'authorized' },
      { field: 'Mutation.updateLink', access: 'authorized' },
      { field: 'Mutation.updatePrayerSettings', access: 'authorized' },
      { field: 'Mutation.updateProfile', access: 'authorized' },
      { field: 'Mutation.verifyMfa', access: 'partial' },
      { field: 'Mutation.verifyRecoveryCode', access: 'partial' },
      { field: 'Query.me', access: 'public' },
      { field: 'Query.mfaStatus', access: 'partial' },
      { field: 'Query.myData', access: 'authorized' },
      { field: 'Query.pageStats', access: 'authorized' },
      { field: 'Query.plans', access: 'public' },
      { field: 'Query.prayerChallenge', access: 'public' },
      { field: 'Query.prayerRequests', access: 'authorized' },
      { field: 'Query.prayerSettings', access: 'authorized' },
      { field: 'Query.profile', access: 'public' },
      { field: 'Query.savedVerses', access: 'authorized' },
      { field: 'Query.subscription', access: 'authorized' },
      { field: 'Query.unreadPrayerRequests', access: 'authorized' },
      { field: 'Query.usernameAvailable', access: 'public' },
      { field: 'Query.verse', access: 'public' },
      { field: 'Query.verseMail', access: 'authorized' },
      { field: 'Query.verseOfTheDay', access: 'public' },
      { field: 'Subscription.pageActivity', access: 'authorized' },
      { field: 'Subscription.planChanged', access: 'authorized' },
      { field: 'Subscription.prayerRequestReceived', access: 'authorized' },
      { field: 'Subscription.profileChanged', access: 'public' },
      { field: 'Subscription.verseOfTheDayChanged', access: 'public' },
    ]);
  });

  it('covers every protected mutation in these tests', () => {
    const tested = new Set([
      ...PROTECTED_MUTATIONS.map(([name]) => `Mutation.${name}`),
      ...MFA_MUTATIONS.map(([name]) => `Mutation.${name}`),
      ...PROTECTED_QUERIES.map(([name]) => `Query.${name}`),
      ...PRAYER_REQUEST_MUTATIONS.map(([name]) => `Mutation.${name}`),
      // Refused without a token over WebSocket in tests/server/subscriptions.test.ts and
      // tests/server/prayer-requests.test.ts.
      'Subscription.pageActivity',
      'Subscription.planChanged',
      'Subscription.prayerRequestReceived',
    ]);
    const authorized = classifyRootFields(resolvers).filter((entry) => entry.access === 'authorized');
    expect(authorized.map((entry) => entry.field).filter((field) => !tested.has(field))).toEqual([]);
  });
});

describe('anonymous callers (B4)', () => {
  it.each(PROTECTED_MUTATIONS)('cannot call %s, and nothing changes', async (_name, mutation) => {
    const { member, session } = await signUpMember(billing.api);
    const links = await linksOf(session.accessToken);
    const before = await snapshot(member.user.uid);
    const response = await billing.api.graphql(mutation({ password: GOOD_PASSWORD, links }));
    expect(response.data).toBeNull();
    expect(firstError(response).code).toBe('UNAUTHENTICATED');
    expect(await snapshot(member.user.uid)).toEqual(before);
  });

  it.each([...MFA_MUTATIONS, ...PRAYER_REQUEST_MUTATIONS])('cannot call %s', async (_name, mutation) => {
    const response = await billing.api.graphql(mutation);
    expect(response.data).toBeNull();
    expect(firstError(response).code).toBe('UNAUTHENTICATED');
  });
});

describe('anonymous readers (B4)', () => {
  it.each(PROTECTED_QUERIES)('cannot read %s', async (_name, query) => {
    const response = await billing.api.graphql(query);
    expect(response.data).toBeNull();
    expect(firstError(response).code).toBe('UNAUTHENTICATED');
  });
});

describe('member A and member B (B4)', () => {
  let a: SignedUpMember;
  let b: SignedUpMember;

  beforeAll(async () => {
    a = await signUpMember(billing.api, { first: 'Abigail' });
    b = await signUpMember(billing.api, { first: 'Boaz' });
    await linksOf(b.session.accessToken);
    // B keeps a verse and the morning mail, so that A's unsaving and unsubscribing could touch them.
    const token = b.session.accessToken;
    await billing.api.graphql('mutation { saveVerse(ref: "John 3:16") { savedAt } }', {}, { token });
    // And a photo, so that A's removePhoto could take it.
    const photo = await fetch(`${billing.api.url}/api/photo`, {
      method: 'PUT',
      headers: { 'content-type': 'image/png', authorization: `Bearer ${token}` },
      body: new Uint8Array(await pngImage(64, 64)),
    });
    expect(photo.status).toBe(200);
    await billing.api.graphql(
      'mutation { subscribeVerseMail(input: { hour: 6, timeZone: "UTC" }) { enabled } }',
      {},
      { token },
    );
    // A has Plus, so that pinVerse succeeds and changes something.
    await billing.api.dataSource.getRepository(UserRecord).update({ uid: a.member.user.uid }, { stripeRole: 'plus' });
  });

  it.each(PROTECTED_MUTATIONS)("A's %s changes only A's account", async (name, mutation) => {
    const before = await snapshot(b.member.user.uid);
    // A signs in afresh for each mutation, since logout and changePassword end A's sessions.
    const current = await billing.api.graphql<{ login: { session: { accessToken: string } } }>(LOGIN, {
      input: { email: a.email, password: a.password },
    });
    const token = current.data?.login.session.accessToken ?? '';
    const links = await linksOf(token);
    const response = await billing.api.graphql(mutation({ password: a.password, links }), {}, { token });
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    if (name === 'changePassword') a.password = NEW_PASSWORD;
    expect(await snapshot(b.member.user.uid)).toEqual(before);
    const stillB = await billing.api.graphql<{ me: { user: { uid: string } } }>(
      ME,
      {},
      { token: b.session.accessToken },
    );
    expect(stillB.data?.me.user.uid).toBe(b.member.user.uid);
  });
});

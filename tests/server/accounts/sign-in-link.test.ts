import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/app.js';
import { startTestApp } from '../../support/app.js';
import { uniqueEmail } from '../../support/identity.js';
import type { MemberData, SessionData } from '../../support/members.js';
import { firstError, MEMBER_FIELDS, SESSION_FIELDS, signUpMember } from '../../support/members.js';
import type { SmtpListener } from '../../support/smtp.js';
import { mailTokens, startSmtpListener } from '../../support/smtp.js';

const REQUEST_LINK = 'mutation ($email: String!) { requestSignInLink(email: $email) { message } }';
const SIGN_IN_WITH_CODE = `mutation ($input: EmailCodeInput!) { signInWithEmailCode(input: $input) { session { ${SESSION_FIELDS} } member { ${MEMBER_FIELDS} } } }`;

let api: TestApp;
let smtp: SmtpListener;

beforeAll(async () => {
  smtp = await startSmtpListener();
  api = await startTestApp({ SMTP_URL: smtp.url, AUTH_SMTP_MAX_FREQUENCY: '0' });
});
afterAll(async () => {
  await api.close();
  await smtp.close();
});

const mailsTo = (email: string) => smtp.messages.filter((message) => message.to.includes(email));

describe('sign-in by emailed link or code (GraphQL)', () => {
  it('requestSignInLink answers the same for a member and an unknown address, and makes no account', async () => {
    const { email } = await signUpMember(api);
    const unknown = uniqueEmail('nobody');
    const forMember = await api.graphql(REQUEST_LINK, { email });
    const forUnknown = await api.graphql(REQUEST_LINK, { email: unknown });
    expect(forMember).toEqual(forUnknown);
    expect(forMember.data).toEqual({ requestSignInLink: { message: 'Please check your inbox.' } });
    const mail = await smtp.nextMessage(email);
    expect(mail.subject).toBe('Your Lampstand sign-in link');
    expect(mailTokens(mail).link).toContain('redirect_to=' + encodeURIComponent(`${api.url}/email-confirmed`));
    expect(mailsTo(unknown)).toHaveLength(0);
    const login = await api.graphql(SIGN_IN_WITH_CODE, { input: { email: unknown, code: '123456' } });
    expect(firstError(login)).toMatchObject({ code: 'INVALID_TOKEN' });
  });

  it('signInWithEmailCode signs the member in with the mailed code, once', async () => {
    const { email, member } = await signUpMember(api, { first: 'Priscilla' });
    await api.graphql(REQUEST_LINK, { email });
    const { otp } = mailTokens(await smtp.nextMessage(email));
    const signedIn = await api.graphql<{ signInWithEmailCode: { session: SessionData; member: MemberData } }>(
      SIGN_IN_WITH_CODE,
      { input: { email: email.toUpperCase(), code: ` ${otp} ` } },
    );
    expect(signedIn.errors).toBeUndefined();
    expect(signedIn.data?.signInWithEmailCode.member).toEqual(member);
    expect(signedIn.data?.signInWithEmailCode.session.accessToken).toEqual(expect.any(String));

    const again = await api.graphql(SIGN_IN_WITH_CODE, { input: { email, code: otp } });
    expect(firstError(again)).toMatchObject({ code: 'INVALID_TOKEN', identityCode: 'otp_expired' });
  });

  it('refuses a malformed address or code with BAD_USER_INPUT, mailing nothing', async () => {
    const badEmail = await api.graphql(REQUEST_LINK, { email: 'not-an-address' });
    expect(firstError(badEmail)).toMatchObject({ code: 'BAD_USER_INPUT', field: 'email' });
    const badCode = await api.graphql(SIGN_IN_WITH_CODE, { input: { email: uniqueEmail(), code: 'abc' } });
    expect(firstError(badCode)).toMatchObject({ code: 'BAD_USER_INPUT' });
  });
});

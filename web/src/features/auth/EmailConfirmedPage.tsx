import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { describeError } from '../../lib/errors';
import { usePageMeta } from '../../lib/use-page-meta';
import { useAuth } from '../../session/AuthProvider';
import { PageHeading } from '../../ui/PageHeading';
import type { AuthClient } from '../../session/auth-client';
import { ANONYMOUS } from '../../session/auth-link';
import { ChoosePasswordForm } from './ChoosePasswordForm';
import { LinkFailed } from './LinkFailed';
import { EmailLinkTwoFactorDocument } from './email-link.generated';
import { SignInCodeForm } from './SignInCodeForm';
import { failureWords } from '../../lib/error-words';

/**
 * What the identity service put in the fragment of `/email-confirmed#…`, or, for a PKCE link
 * (asked for by another app with supabase-js's PKCE flow), in its query.
 */
type LinkResult =
  | { kind: 'session'; accessToken: string; refreshToken: string; type: string }
  | { kind: 'message' }
  | { kind: 'otherApp' }
  | { kind: 'error'; code: string }
  | { kind: 'none' };

/** What a PKCE link's page says: only the app that asked for the link holds its code verifier. */
const OTHER_APP = 'This link finishes in the app where you asked for it. Go back to that app to continue';

function readLinkResult(hash: string, search: string): LinkResult {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const query = new URLSearchParams(search);
  const accessToken = params.get('access_token');
  const refreshToken = params.get('refresh_token');
  if (accessToken && refreshToken) {
    return { kind: 'session', accessToken, refreshToken, type: params.get('type') ?? 'signup' };
  }
  const error = params.get('error_code') ?? params.get('error') ?? query.get('error_code');
  if (error) {
    return { kind: 'error', code: error };
  }
  // The code of a PKCE link can only be exchanged by the app that asked for the link.
  if (query.get('code')) return { kind: 'otherApp' };
  // The identity service's own sentence after the first of two email-change links: ours is below.
  return params.get('message') || query.get('message') ? { kind: 'message' } : { kind: 'none' };
}

/** The identity service's link failures (its `error_code`s), said for people. */
const LINK_FAILURES: Record<string, string> = {
  otp_expired: 'This link has expired or was already used.',
  access_denied: 'This link has expired or was already used.',
  flow_state_expired: 'This link has expired.',
};

/**
 * Where a link's session goes once signed in, with the notice it shows there: straight on, with no
 * page of its own in between. An invitation stays here to choose a password first.
 */
const DESTINATIONS: Readonly<Record<string, { to: string; notice: string }>> = {
  magiclink: { to: '/profile', notice: 'Welcome back. You are logged in.' },
  email_change: { to: '/account', notice: 'Your new email address is confirmed. From now on, log in with it.' },
};

/** A sign-up's confirmation, and any other link that signs in. */
const CONFIRMED = { to: '/welcome', notice: 'Your email address is confirmed. Welcome to Lampstand.' };

type State =
  | { status: 'working' }
  | { status: 'invited' }
  | { status: 'code'; type: string; mfaToken: string }
  | { status: 'failed'; message: string }
  | { status: 'halfway' }
  | { status: 'otherApp' }
  | { status: 'empty' };

function initialState(link: LinkResult): State {
  switch (link.kind) {
    case 'session':
      return { status: 'working' };
    case 'message':
      return { status: 'halfway' };
    case 'otherApp':
      return { status: 'otherApp' };
    case 'error':
      return { status: 'failed', message: LINK_FAILURES[link.code] ?? 'This link did not work.' };
    case 'none':
      return { status: 'empty' };
  }
}

/**
 * Signs in with the link's session, unless the member has two-factor sign-in on and the session
 * has not passed it: then nothing is kept yet and true is answered (the code comes first, as at login).
 */
async function signInUnlessCodeNeeded(
  client: AuthClient,
  link: { accessToken: string; refreshToken: string },
): Promise<boolean> {
  const { data } = await client.apollo.query({
    query: EmailLinkTwoFactorDocument,
    fetchPolicy: 'no-cache',
    context: { ...ANONYMOUS, headers: { authorization: `Bearer ${link.accessToken}` } },
  });
  if (data?.mfaStatus.enabled && !data.mfaStatus.verified) return true;
  await client.signIn({ refreshToken: link.refreshToken });
  return false;
}

/**
 * Where the emailed links for sign-up, sign-in, invitations and email changes land: takes the
 * session from the URL fragment (then the member's records), removes the tokens from the address
 * bar and history, and says what happened; an invitee then chooses a password.
 */
export function EmailConfirmedPage() {
  usePageMeta({ title: 'Email address confirmed · Lampstand' });
  const { client, user } = useAuth();
  const navigate = useNavigate();
  const [link] = useState(() => readLinkResult(window.location.hash, window.location.search));
  const [state, setState] = useState<State>(() => initialState(link));
  const started = useRef(false);

  /** Goes on to the link's destination, or asks an invitee for a password here. */
  const goOn = useCallback(
    (type: string) => {
      if (type === 'invite') {
        setState({ status: 'invited' });
        return;
      }
      const { to, notice } = DESTINATIONS[type] ?? CONFIRMED;
      void navigate(to, { replace: true, state: { notice } });
    },
    [navigate],
  );

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // Tokens must not stay in the address bar, the history, a bookmark, or what tags read. Through
    // the router, so that page views (which wait for this) see the clean address.
    if (window.location.hash || window.location.search) void navigate({ search: '' }, { replace: true });
    if (link.kind !== 'session') return;
    signInUnlessCodeNeeded(client, link).then(
      (needsCode) => {
        if (needsCode) setState({ status: 'code', type: link.type, mfaToken: link.accessToken });
        else goOn(link.type);
      },
      (error: unknown) => {
        console.error('Signing in from the email link failed', error);
        setState({ status: 'failed', message: failureWords(describeError(error)) });
      },
    );
  }, [client, link, navigate, goOn]);

  switch (state.status) {
    case 'code':
      return (
        <section className="page narrow" aria-labelledby="confirmed-title">
          <PageHeading id="confirmed-title">Enter your code</PageHeading>
          <p className="lead">
            Your link worked. Two-factor sign-in is on: enter the code from your authenticator app.
          </p>
          <SignInCodeForm
            mfaToken={state.mfaToken}
            onSignedIn={() => {
              goOn(state.type);
            }}
          />
        </section>
      );
    case 'working':
      return (
        <section className="page narrow" aria-labelledby="confirmed-title" aria-busy="true">
          <PageHeading id="confirmed-title">Confirming your email address…</PageHeading>
          <p className="lead" role="status">
            One moment, please.
          </p>
        </section>
      );
    case 'invited':
      return (
        <section className="page narrow" aria-labelledby="confirmed-title">
          <p className="eyebrow">Welcome to Lampstand</p>
          <PageHeading id="confirmed-title">Choose your password</PageHeading>
          <p className="lead" role="status">
            You accepted the invitation and are logged in as {user?.email ?? 'your invited address'}. Choose the
            password you will log in with.
          </p>
          <ChoosePasswordForm
            submitLabel="Save my password"
            onDone={() => {
              void navigate('/welcome', { replace: true });
            }}
          />
        </section>
      );
    case 'halfway':
      return (
        <section className="page narrow" aria-labelledby="confirmed-title">
          <PageHeading id="confirmed-title">One more step</PageHeading>
          <p className="lead" role="status">
            This address is confirmed. Now follow the link we sent to your other address.
          </p>
          <p>
            We sent a link to both your current and your new address. The change is made once both are followed.
            Changing your password meanwhile does not cancel it; asking for another address does.
          </p>
        </section>
      );
    case 'otherApp':
      return (
        <section className="page narrow" aria-labelledby="confirmed-title">
          <PageHeading id="confirmed-title">Back to your app</PageHeading>
          <p className="lead" role="status">
            {OTHER_APP}.
          </p>
        </section>
      );
    case 'failed':
      return (
        <LinkFailed message={state.message}>
          <p>Links work once and expire after an hour. Log in to ask for a new one.</p>
          <p>
            <Link to="/login" className="button button--primary">
              Log in
            </Link>
          </p>
        </LinkFailed>
      );
    case 'empty':
      return (
        <section className="page narrow" aria-labelledby="confirmed-title">
          <PageHeading id="confirmed-title">Nothing to confirm</PageHeading>
          <p className="lead">This page opens from the links we email. There is nothing to confirm here right now.</p>
          <p>
            <Link to="/" className="button button--primary">
              Go to the home page
            </Link>
          </p>
        </section>
      );
  }
}

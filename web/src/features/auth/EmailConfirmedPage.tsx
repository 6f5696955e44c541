import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { describeError, displayCode } from '../../lib/errors';
import { usePageMeta } from '../../lib/usePageMeta';
import { useAuth } from '../../session/AuthProvider';
import { PageHeading } from '../../ui/PageHeading';

/** What the identity service put in the fragment of `/email-confirmed#…`. */
type LinkResult =
  | { kind: 'session'; refreshToken: string; type: string }
  | { kind: 'message'; message: string }
  | { kind: 'error'; description: string; code: string }
  | { kind: 'none' };

function readLinkResult(hash: string): LinkResult {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const refreshToken = params.get('refresh_token');
  if (params.get('access_token') && refreshToken) {
    return { kind: 'session', refreshToken, type: params.get('type') ?? 'signup' };
  }
  const error = params.get('error_code') ?? params.get('error');
  if (error) {
    return { kind: 'error', code: error, description: params.get('error_description') ?? 'This link did not work.' };
  }
  const message = params.get('message');
  return message ? { kind: 'message', message } : { kind: 'none' };
}

type State =
  | { status: 'working' }
  | { status: 'confirmed'; type: string }
  | { status: 'failed'; message: string; code: string }
  | { status: 'halfway'; message: string }
  | { status: 'empty' };

function initialState(link: LinkResult): State {
  switch (link.kind) {
    case 'session':
      return { status: 'working' };
    case 'message':
      return { status: 'halfway', message: link.message };
    case 'error':
      return { status: 'failed', message: link.description, code: link.code };
    case 'none':
      return { status: 'empty' };
  }
}

/**
 * Where the emailed links for sign-up and email changes land: takes the session from the URL
 * fragment (then the member's records), removes the tokens from the address bar and history, and
 * says what happened.
 */
export function EmailConfirmedPage() {
  usePageMeta({ title: 'Email address confirmed · Lampstand' });
  const { client, user } = useAuth();
  const navigate = useNavigate();
  const [link] = useState(() => readLinkResult(window.location.hash));
  const [state, setState] = useState<State>(() => initialState(link));
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // Tokens must not stay in the address bar, the history, a bookmark, or what tags read. Through
    // the router, so that page views (which wait for this) see the clean address.
    if (window.location.hash) void navigate({ search: window.location.search }, { replace: true });
    if (link.kind !== 'session') return;
    client.signIn({ refreshToken: link.refreshToken }).then(
      () => {
        setState({ status: 'confirmed', type: link.type });
      },
      (error: unknown) => {
        console.error('Signing in from the email link failed', error);
        const failure = describeError(error);
        setState({ status: 'failed', message: failure.message, code: displayCode(failure) });
      },
    );
  }, [client, link, navigate]);

  switch (state.status) {
    case 'working':
      return (
        <section className="page narrow" aria-labelledby="confirmed-title" aria-busy="true">
          <PageHeading id="confirmed-title">Confirming your email address…</PageHeading>
          <p className="lead" role="status">
            One moment, please.
          </p>
        </section>
      );
    case 'confirmed':
      return (
        <section className="page narrow" aria-labelledby="confirmed-title">
          <p className="eyebrow">All set</p>
          <PageHeading id="confirmed-title">
            {state.type === 'email_change' ? 'Your new email address is confirmed' : 'Your email address is confirmed'}
          </PageHeading>
          <p className="lead" role="status">
            {state.type === 'email_change'
              ? `From now on, log in with ${user?.email ?? 'your new address'}.`
              : 'Welcome to Lampstand. You are logged in.'}
          </p>
          <p>
            <Link to={state.type === 'email_change' ? '/account' : '/welcome'} className="button button--primary">
              {state.type === 'email_change' ? 'Back to your account' : 'Continue'}
            </Link>
          </p>
        </section>
      );
    case 'halfway':
      return (
        <section className="page narrow" aria-labelledby="confirmed-title">
          <PageHeading id="confirmed-title">One more step</PageHeading>
          <p className="lead" role="status">
            {state.message}.
          </p>
          <p>We sent a link to both your current and your new address. The change is made once both are followed.</p>
        </section>
      );
    case 'failed':
      return (
        <section className="page narrow" aria-labelledby="confirmed-title">
          <PageHeading id="confirmed-title">This link did not work</PageHeading>
          <div className="form-alert" role="alert">
            {state.message} ({state.code})
          </div>
          <p>Links work once and expire after an hour. Log in to ask for a new one.</p>
          <p>
            <Link to="/login" className="button button--primary">
              Log in
            </Link>
          </p>
        </section>
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

import { useEffect, useState } from 'react';
import { passkeyProblem } from '../../lib/errors';
import { useFormAction } from '../../lib/use-form-action';
import { useAuth } from '../../session/AuthProvider';
import type { Passkey } from '../../session/passkeys';
import { FormAlert, FormStatus } from '../../ui/Field';

/** The passkey calls (and @simplewebauthn/browser) load with this section, not with every page. */
const passkeys = () => import('../../session/passkeys');

/**
 * `/account`: the member's passkeys. A passkey signs in on its own ("Sign in with a passkey") and is
 * a second factor after the password; adding or removing one needs a session that passed two-factor
 * sign-in when the account has a second factor.
 */
export function PasskeysSection() {
  const { client } = useAuth();
  const [list, setList] = useState<Passkey[] | null>(null);
  const [loadError, setLoadError] = useState(false);
  const action = useFormAction();
  const token = () => client.getSnapshot().session?.accessToken ?? '';

  /** Bumped to read the list again (after a change, or "Try again"). */
  const [version, setVersion] = useState(0);
  const load = () => {
    setLoadError(false);
    setVersion((current) => current + 1);
  };

  useEffect(() => {
    let live = true;
    passkeys()
      .then(({ listPasskeys }) => listPasskeys(client.getSnapshot().session?.accessToken ?? ''))
      .then(
        (found) => {
          if (live) setList(found);
        },
        (error: unknown) => {
          console.error('Loading passkeys failed', error);
          if (live) setLoadError(true);
        },
      );
    return () => {
      live = false;
    };
  }, [client, version]);

  const add = () =>
    action.run(
      async () => {
        const { addPasskey } = await passkeys();
        const session = await addPasskey(token(), `Passkey ${String((list?.length ?? 0) + 1)}`);
        // The passkey raised this session to aal2: its new tokens replace the old ones.
        await client.signIn({ refreshToken: session.refresh_token });
        load();
        return 'Passkey added. You can now log in with it, and it counts as your second step.';
      },
      { name: 'add', onFailure: (_problem, error) => passkeyProblem(error) },
    );

  const remove = (passkey: Passkey) =>
    action.run(
      async () => {
        const { removePasskey } = await passkeys();
        await removePasskey(token(), passkey.id);
        // Gone from the list as the message says so, before the list is read again.
        setList((current) => current?.filter((kept) => kept.id !== passkey.id) ?? null);
        const session = client.getSnapshot().session;
        // The session it raised falls back to aal1: its next token says so.
        if (session) await client.signIn({ refreshToken: session.refreshToken });
        load();
        return `${passkey.name} removed.`;
      },
      { name: `remove-${passkey.id}`, onFailure: (_problem, error) => passkeyProblem(error) },
    );

  let body;
  if (loadError) {
    body = (
      <>
        <p>We could not load your passkeys just now.</p>
        <button type="button" className="button" onClick={load}>
          Try again
        </button>
      </>
    );
  } else if (!list) {
    body = <p role="status">Loading your passkeys…</p>;
  } else {
    body = (
      <>
        <p>
          A passkey lets you log in with this device&apos;s fingerprint, face or screen lock instead of a password. It
          also counts as your second step after a password.
        </p>
        {list.length > 0 && (
          <ul className="passkey-list" aria-label="Your passkeys">
            {list.map((passkey) => (
              <li key={passkey.id}>
                <span>
                  {passkey.name} <small>added {new Date(passkey.createdAt).toLocaleDateString()}</small>
                </span>
                <button
                  type="button"
                  className="button button--danger"
                  disabled={action.busy}
                  onClick={() => void remove(passkey)}
                >
                  {action.pending === `remove-${passkey.id}` ? 'Removing…' : `Remove ${passkey.name}`}
                </button>
              </li>
            ))}
          </ul>
        )}
        <button type="button" className="button" disabled={action.busy} onClick={() => void add()}>
          {action.pending === 'add' ? 'Waiting for your passkey…' : 'Add a passkey'}
        </button>
      </>
    );
  }

  return (
    <section className="account-section" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">Passkeys</h2>
      <FormAlert>{action.alert}</FormAlert>
      {body}
      <FormStatus>{action.status}</FormStatus>
    </section>
  );
}

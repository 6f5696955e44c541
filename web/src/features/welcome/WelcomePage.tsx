import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { describeError } from '../../lib/errors';
import { usePageMeta } from '../../lib/use-page-meta';
import { useAuth } from '../../session/AuthProvider';
import { FormAlert } from '../../ui/Field';
import { PageHeading } from '../../ui/PageHeading';
import { useCompleteWelcome } from './use-complete-welcome';
import './welcome.css';

const STEPS = [
  { title: 'Your page', text: 'A simple public page with your name. Share its address with anyone.' },
  {
    title: 'A verse every day',
    text: 'Your page shows a new Bible verse each day, in the King James Version or the World English Bible (both public domain).',
  },
  { title: 'Your look', text: 'Choose a theme, a layout and a button style, and keep your page private if you wish.' },
];

/** Copies the page's address, and says so (or how to copy it by hand) in a live region. */
function CopyAddress({ url }: { url: string }) {
  const [result, setResult] = useState<'copied' | 'failed' | null>(null);
  return (
    <span className="welcome-copy">
      <button
        type="button"
        className="button button--small"
        onClick={() => {
          navigator.clipboard.writeText(url).then(
            () => {
              setResult('copied');
            },
            () => {
              setResult('failed');
            },
          );
        }}
      >
        Copy address
      </button>
      <span role="status" className="welcome-copy-status">
        {result === 'copied' && 'Address copied.'}
        {result === 'failed' && 'Select the address to copy it.'}
      </span>
    </span>
  );
}

/**
 * Shown once, after sign-up (member screens lead here until it has been seen): seeing it finishes
 * it, so that the editor opens from then on, whichever button the member takes or none.
 */
export function WelcomePage() {
  usePageMeta({ title: 'Welcome · Lampstand' });
  const { user, profile } = useAuth();
  const navigate = useNavigate();
  const [completeWelcome] = useCompleteWelcome();
  const [alert, setAlert] = useState<string | null>(null);
  const [saved, setSaved] = useState(profile?.welcome ?? false);
  // The completion on its way, which the buttons wait for rather than send again.
  const sending = useRef<Promise<boolean> | null>(null);

  const complete = useCallback(async (): Promise<boolean> => {
    setAlert(null);
    try {
      await completeWelcome();
      setSaved(true);
      return true;
    } catch (error) {
      setAlert(describeError(error).message);
      return false;
    }
  }, [completeWelcome]);
  useEffect(() => {
    // Once, when the screen is first shown; the buttons try again after a failure.
    if (sending.current || saved) return;
    sending.current = complete();
  }, [complete, saved]);

  if (!profile || !user) return null;

  const go = async (next: string) => {
    let done = saved || (sending.current !== null && (await sending.current));
    if (!done) {
      sending.current = complete();
      done = await sending.current;
    }
    if (done) void navigate(next);
  };
  const path = `/@${profile.username}`;
  const url = `${window.location.origin}${path}`;

  return (
    <section className="page welcome" aria-labelledby="welcome-title">
      <p className="eyebrow">Welcome</p>
      <PageHeading id="welcome-title">Welcome to Lampstand, {user.first}</PageHeading>
      <p className="lead">
        Your page is ready at{' '}
        <Link to={path} className="welcome-address">
          {url.replace(/^https?:\/\//, '')}
        </Link>{' '}
        <CopyAddress url={url} />
      </p>
      <ol className="welcome-steps">
        {STEPS.map((step) => (
          <li key={step.title}>
            <h2>{step.title}</h2>
            <p>{step.text}</p>
          </li>
        ))}
      </ol>
      <FormAlert>{alert}</FormAlert>
      <p className="welcome-actions">
        <button type="button" className="button button--primary" onClick={() => void go('/profile')}>
          Make it mine
        </button>
        <button type="button" className="button button--quiet" onClick={() => void go(path)}>
          See my page
        </button>
      </p>
      <p className="form-aside">You can change all of this later, as often as you like.</p>
    </section>
  );
}

import { useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { describeError } from '../../lib/errors';
import { usePageMeta } from '../../lib/usePageMeta';
import { useAuth } from '../../session/AuthProvider';
import { FormAlert } from '../../ui/Field';
import { PageHeading } from '../../ui/PageHeading';
import { useCompleteWelcome } from './useCompleteWelcome';
import './welcome.css';

const STEPS = [
  { title: 'Your page', text: 'A simple public page with your name. Share its address with anyone.' },
  { title: 'A verse every day', text: 'Your page shows a new Bible verse each day, from the King James Version.' },
  { title: 'Your look', text: 'Choose a theme, a layout and a button style, and keep your page private if you wish.' },
];

/** Shown after sign-up until the member finishes it. */
export function WelcomePage() {
  usePageMeta({ title: 'Welcome · Lampstand' });
  const { user, profile } = useAuth();
  const navigate = useNavigate();
  const [completeWelcome, { loading }] = useCompleteWelcome();
  const [alert, setAlert] = useState<string | null>(null);
  const [finished, setFinished] = useState(false);

  if (!profile || !user) return null;
  if (profile.welcome && !finished) return <Navigate to="/profile" replace />;

  const finish = async (next: string) => {
    if (loading) return;
    setAlert(null);
    try {
      setFinished(true);
      await completeWelcome();
      void navigate(next);
    } catch (error) {
      setFinished(false);
      setAlert(describeError(error).message);
    }
  };
  const address = `${window.location.host}/@${profile.username}`;

  return (
    <section className="page welcome" aria-labelledby="welcome-title">
      <p className="eyebrow">Welcome</p>
      <PageHeading id="welcome-title">Welcome to Lampstand, {user.first}</PageHeading>
      <p className="lead">
        Your page is ready at <strong className="welcome-address">{address}</strong>
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
        <button
          type="button"
          className="button button--primary"
          aria-disabled={loading || undefined}
          onClick={() => void finish('/profile')}
        >
          Make it mine
        </button>
        <button
          type="button"
          className="button button--quiet"
          aria-disabled={loading || undefined}
          onClick={() => void finish(`/@${profile.username}`)}
        >
          See my page
        </button>
      </p>
      <p className="form-aside">You can change all of this later, as often as you like.</p>
    </section>
  );
}

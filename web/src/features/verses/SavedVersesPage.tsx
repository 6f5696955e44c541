import { useRef, useState } from 'react';
import type { SubmitEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { describeError } from '../../lib/errors';
import { useFormAction } from '../../lib/use-form-action';
import { usePageMeta } from '../../lib/use-page-meta';
import { useReaderTranslation } from '../../lib/reader-translation';
import { visitorTimeZone } from '../../lib/time-zone';
import { useAuth } from '../../session/AuthProvider';
import { FormAlert, FormStatus, SubmitButton, TextField } from '../../ui/Field';
import { MemberNav } from '../../ui/MemberNav';
import { PageHeading } from '../../ui/PageHeading';
import { TranslationToggle } from '../../ui/verse/TranslationToggle';
import { VerseCard, VerseCardPlaceholder } from '../../ui/verse/VerseCard';
import type { VerseMail_SettingsFragment } from './saved-verses.generated';
import { useSavedVerses } from './use-saved-verses';
import './verses.css';

type SavedVerses = ReturnType<typeof useSavedVerses>;

/** `/saved`: the member's saved verses, saving one by reference, and the verse by mail each morning. */
export function SavedVersesPage() {
  usePageMeta({ title: 'Your verses · Lampstand' });
  const { profile } = useAuth();
  const [chosen, choose] = useReaderTranslation();
  const translation = chosen ?? profile?.translation ?? 'KJV';
  const verses = useSavedVerses(translation);
  return (
    <section className="page saved-verses" aria-labelledby="verses-title">
      <MemberNav />
      <PageHeading id="verses-title">Your verses</PageHeading>
      <SaveForm verses={verses} />
      <SavedList verses={verses} translation={translation} onTranslation={choose} />
      <MailSection verses={verses} />
    </section>
  );
}

function SaveForm({ verses }: { verses: SavedVerses }) {
  const [params] = useSearchParams();
  const [ref, setRef] = useState(params.get('ref') ?? '');
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const action = useFormAction();
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (!ref.trim()) {
      setError('Write a verse reference, such as John 3:16.');
      input.current?.focus();
      return;
    }
    setError(null);
    await action.run(
      async () => {
        const verse = await verses.save(ref.trim());
        setRef('');
        return `Saved ${verse.ref}.`;
      },
      { fields: { ref: { setError, input } }, onFailure: (problem) => problem.message },
    );
  };
  return (
    <form className="form verses-section" onSubmit={(event) => void submit(event)} noValidate>
      <h2>Save a verse</h2>
      <FormAlert>{action.alert}</FormAlert>
      <TextField
        ref={input}
        id="save-ref"
        label="Verse"
        hint="A reference such as John 3:16 or Ps 23:1."
        value={ref}
        maxLength={100}
        onChange={(event) => {
          setRef(event.target.value);
          setError(null);
        }}
        error={error ?? undefined}
      />
      <SubmitButton busy={action.busy} busyLabel="Saving…">
        Save verse
      </SubmitButton>
      <FormStatus>{action.status}</FormStatus>
    </form>
  );
}

function SavedList({
  verses,
  translation,
  onTranslation,
}: {
  verses: SavedVerses;
  translation: 'KJV' | 'WEB';
  onTranslation: (choice: 'KJV' | 'WEB') => void;
}) {
  const { stripe } = useAuth();
  const [message, setMessage] = useState<string | null>(null);
  const { data, dataState, error, refetch } = verses.query;
  const act = (work: () => Promise<void>, done: string) => {
    setMessage(null);
    work().then(
      () => {
        setMessage(done);
      },
      (failure: unknown) => {
        setMessage(describeError(failure).message);
      },
    );
  };
  let body;
  if (dataState === 'complete') {
    body =
      data.savedVerses.length === 0 ? (
        <p>
          No saved verses yet. Save one above, or from <Link to="/verse">a day’s verse</Link>.
        </p>
      ) : (
        <ul className="saved-list">
          {data.savedVerses.map(({ verse }) => (
            <li key={verse.id}>
              <VerseCard verse={verse} />
              <div className="saved-actions">
                <button
                  type="button"
                  className="button button--small"
                  onClick={() => {
                    act(() => verses.remove(verse.id), `Removed ${verse.ref}.`);
                  }}
                >
                  Remove<span className="visually-hidden"> {verse.ref}</span>
                </button>
                {stripe && (
                  <button
                    type="button"
                    className="button button--small"
                    onClick={() => {
                      act(() => verses.showOnPage(verse.ref), `Your page now shows ${verse.ref}.`);
                    }}
                  >
                    Show on my page<span className="visually-hidden">: {verse.ref}</span>
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      );
  } else if (error) {
    body = (
      <div role="alert">
        <p>We couldn’t load your saved verses.</p>
        <button type="button" className="button" onClick={() => void refetch()}>
          Try again
        </button>
      </div>
    );
  } else {
    body = <VerseCardPlaceholder />;
  }
  return (
    <section className="verses-section" aria-labelledby="saved-title" aria-busy={dataState !== 'complete' && !error}>
      <h2 id="saved-title">Saved verses</h2>
      <TranslationToggle value={translation} onChange={onTranslation} />
      <div role="status">{message}</div>
      {body}
    </section>
  );
}

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
/** An hour of the list as what it is: an hour of the member's own day, not of UTC or the server's. */
const localHourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00 local time`;

function MailSection({ verses }: { verses: SavedVerses }) {
  const { data, dataState } = verses.query;
  const settings: VerseMail_SettingsFragment | null = dataState === 'complete' ? data.verseMail : null;
  const timeZone = visitorTimeZone() ?? 'UTC';
  const [hour, setHour] = useState<number | null>(null);
  const action = useFormAction();
  const chosenHour = hour ?? settings?.hour ?? 7;
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    await action.run(
      async () => {
        await verses.subscribe({ hour: chosenHour, timeZone });
        return `The verse will reach you each day at ${localHourLabel(chosenHour)} (${timeZone}).`;
      },
      { onFailure: (problem) => problem.message },
    );
  };
  const stop = () =>
    void action.run(
      async () => {
        await verses.unsubscribe();
        return 'No more verses by mail.';
      },
      { onFailure: (problem) => problem.message, name: 'stop' },
    );
  return (
    <section className="verses-section" aria-labelledby="mail-title">
      <h2 id="mail-title">The verse by email</h2>
      {settings === null ? (
        <VerseCardPlaceholder />
      ) : (
        <form className="form" onSubmit={(event) => void submit(event)}>
          <p>
            {settings.enabled
              ? `Each morning’s verse reaches you at ${localHourLabel(settings.hour ?? 0)} (${settings.timeZone ?? ''}).`
              : 'Get the day’s verse in your inbox each morning, in your page’s translation.'}
          </p>
          <FormAlert>{action.alert}</FormAlert>
          <div className="mail-form">
            <div className="field">
              <label htmlFor="mail-hour">Hour it arrives, in your time zone ({timeZone})</label>
              <select
                id="mail-hour"
                value={chosenHour}
                onChange={(event) => {
                  setHour(Number(event.target.value));
                }}
              >
                {HOURS.map((value) => (
                  <option key={value} value={value}>
                    {localHourLabel(value)}
                  </option>
                ))}
              </select>
            </div>
            <SubmitButton busy={action.pending === 'submit'} busyLabel="Saving…">
              {settings.enabled ? 'Change the time' : 'Mail me the verse each morning'}
            </SubmitButton>
            {settings.enabled && (
              <button type="button" className="button" onClick={stop}>
                Stop the mail
              </button>
            )}
          </div>
          <FormStatus>{action.status}</FormStatus>
        </form>
      )}
    </section>
  );
}

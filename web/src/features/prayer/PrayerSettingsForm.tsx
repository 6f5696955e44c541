import { useState } from 'react';
import type { SubmitEvent } from 'react';
import { MAX_PRAYER_PROMPT_LENGTH, PRAYER_RETENTION_DAYS } from '@rules/prayer';
import { failureWords } from '../../lib/error-words';
import { useFormAction } from '../../lib/use-form-action';
import { FormAlert, FormStatus, SubmitButton } from '../../ui/Field';
import type { PrayerRequestsPageQuery } from './prayer-requests.generated';
import { useUpdatePrayerSettingsMutation } from './prayer-requests.generated';

type Settings = PrayerRequestsPageQuery['prayerSettings'];

/** The button on the page, how long requests are kept, and (Plus) a prompt and a daily digest. */
export function PrayerSettingsForm({ settings, plus }: { settings: Settings; plus: boolean }) {
  const [enabled, setEnabled] = useState(settings.enabled);
  const [prompt, setPrompt] = useState(settings.prompt ?? '');
  const [dailyDigest, setDailyDigest] = useState(settings.dailyDigest);
  const [retentionDays, setRetentionDays] = useState(settings.retentionDays);
  const [update] = useUpdatePrayerSettingsMutation();
  const action = useFormAction();

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    await action.run(
      async () => {
        const input = plus
          ? { enabled, retentionDays, prompt: prompt.trim() === '' ? null : prompt, dailyDigest }
          : { enabled, retentionDays };
        await update({ variables: { input } });
        return 'Saved.';
      },
      { onFailure: (problem) => failureWords(problem) },
    );
  };

  return (
    <form className="form" aria-label="Prayer request settings" noValidate onSubmit={(event) => void submit(event)}>
      <FormAlert>{action.alert}</FormAlert>
      <div className="field field-check">
        <input
          id="prayer-enabled"
          type="checkbox"
          checked={enabled}
          onChange={(event) => {
            setEnabled(event.target.checked);
          }}
        />
        <label htmlFor="prayer-enabled">Show “Send a prayer request” on my page</label>
      </div>
      <div className="field">
        <label htmlFor="prayer-retention">Delete requests after</label>
        <select
          id="prayer-retention"
          value={retentionDays}
          onChange={(event) => {
            setRetentionDays(Number(event.target.value));
          }}
        >
          {PRAYER_RETENTION_DAYS.map((days) => (
            <option key={days} value={days}>
              {days} days
            </option>
          ))}
        </select>
      </div>
      {plus && (
        <>
          <div className="field">
            <label htmlFor="prayer-prompt">
              Words over the form <span className="field-optional">(optional)</span>
            </label>
            <input
              id="prayer-prompt"
              maxLength={MAX_PRAYER_PROMPT_LENGTH}
              placeholder="How can I pray for you?"
              value={prompt}
              onChange={(event) => {
                setPrompt(event.target.value);
              }}
            />
          </div>
          <div className="field field-check">
            <input
              id="prayer-digest"
              type="checkbox"
              checked={dailyDigest}
              onChange={(event) => {
                setDailyDigest(event.target.checked);
              }}
            />
            <label htmlFor="prayer-digest">One mail a day about new requests, instead of at most one an hour</label>
          </div>
        </>
      )}
      <FormStatus>{action.status}</FormStatus>
      <SubmitButton busy={action.busy} busyLabel="Saving…">
        Save
      </SubmitButton>
    </form>
  );
}

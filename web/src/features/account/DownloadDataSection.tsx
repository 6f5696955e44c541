import { failureWords } from '../../lib/error-words';
import { useFormAction } from '../../lib/use-form-action';
import { useAuth } from '../../session/AuthProvider';
import { FormAlert, FormStatus } from '../../ui/Field';
import { useDownloadMyData } from './use-download-my-data';

/** "Download my data": everything Lampstand holds about the member, as one JSON file. */
export function DownloadDataSection() {
  const { username } = useAuth();
  const download = useDownloadMyData();
  const action = useFormAction();

  return (
    <section className="account-section" aria-labelledby="data-title">
      <h2 id="data-title">Your data</h2>
      <p>
        A copy of everything we hold about you: your account, page, links, page statistics, billing and the devices you
        are signed in on, as a JSON file.
      </p>
      <FormAlert>{action.alert}</FormAlert>
      <button
        type="button"
        className="button"
        aria-disabled={action.busy || undefined}
        onClick={() =>
          void action.run(async () => `Saved ${await download(username)}.`, {
            onFailure: (problem) => failureWords(problem),
          })
        }
      >
        {action.busy ? 'Preparing…' : 'Download my data'}
      </button>
      <FormStatus>{action.status}</FormStatus>
    </section>
  );
}

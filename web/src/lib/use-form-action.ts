import { useRef, useState } from 'react';
import type { RefObject } from 'react';
import { failureWords } from './error-words';
import type { ApiFailure } from './errors';
import { describeError } from './errors';

/** Where a failure that names one of the form's inputs is shown: at the input, which takes the focus. */
export interface FieldRoute {
  /** Shows the failure's words at the field (the form's own error state for it). */
  setError: (message: string) => void;
  input: RefObject<HTMLElement | null>;
  /** Failures with these codes land here too, whatever field they name (a wrong password has none). */
  codes?: readonly string[];
}

export interface RunOptions<Alert> {
  /** The alert a failure shows (null for none); it may also mark the fields at fault. */
  onFailure: (problem: ApiFailure, error: unknown) => Alert | null;
  /**
   * The form's inputs by the API's name for them (`problem.field`, e.g. `newPassword`): a failure
   * naming one is shown at it instead of going to `onFailure`.
   */
  fields?: Readonly<Record<string, FieldRoute>>;
  /** Which of a form's actions runs (`pending`), when it has more than one. */
  name?: string;
  /** The form stays busy after success: the page is on its way out (e.g. the account is deleted). */
  leaves?: boolean;
}

export interface FormAction<Alert> {
  /** True while an action runs; the submit button shows its busy label. */
  busy: boolean;
  /** The name of the running action (see RunOptions.name), `submit` by default. */
  pending: string | null;
  /** What went wrong, above the form (`<FormAlert>`). */
  alert: Alert | null;
  setAlert: (alert: Alert | null) => void;
  /** What went right, below the form (`<FormStatus>`). */
  status: string | null;
  setStatus: (status: string | null) => void;
  /**
   * Runs `work` unless an action is already running: clears the alert and status, stays busy until
   * it settles, then shows the status it resolves with (a string; anything else shows none), or the
   * error shown at its field (`fields`) or the alert `onFailure` makes of it.
   */
  run: (work: () => Promise<unknown>, options: RunOptions<Alert>) => Promise<void>;
}

/** The busy/alert/status pattern of every form that sends something to the API. */
export function useFormAction<Alert = string>(): FormAction<Alert> {
  const [pending, setPending] = useState<string | null>(null);
  const [alert, setAlert] = useState<Alert | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  // A second submit can arrive before React renders the first one's busy state.
  const running = useRef(false);

  const run: FormAction<Alert>['run'] = async (work, { onFailure, fields = {}, name = 'submit', leaves = false }) => {
    if (running.current) return;
    running.current = true;
    setAlert(null);
    setStatus(null);
    setPending(name);
    let succeeded = false;
    try {
      const done = await work();
      succeeded = true;
      if (typeof done === 'string') setStatus(done);
    } catch (error) {
      const problem = describeError(error);
      const route = fieldRoute(problem, fields);
      if (route) {
        route.setError(failureWords(problem));
        route.input.current?.focus();
      } else {
        setAlert(onFailure(problem, error));
      }
    } finally {
      if (!(succeeded && leaves)) {
        running.current = false;
        setPending(null);
      }
    }
  };

  return { busy: pending !== null, pending, alert, setAlert, status, setStatus, run };
}

function fieldRoute(problem: ApiFailure, fields: Readonly<Record<string, FieldRoute>>): FieldRoute | undefined {
  const named = problem.field === null ? undefined : fields[problem.field];
  return named ?? Object.values(fields).find((route) => route.codes?.includes(problem.code));
}

import { useEffect, useState } from 'react';
import type { Strength } from './strength';

const LABELS = ['Very weak', 'Weak', 'Fair', 'Strong', 'Very strong'] as const;

type Rate = (password: string, userInputs: string[]) => Strength;

/** The estimator and its dictionaries are large: they load with the first keystroke, on this screen only. */
let loading: Promise<Rate> | null = null;
function loadRate(): Promise<Rate> {
  loading ??= import('./strength').then((module) => module.rate);
  return loading;
}

/**
 * A strength meter for a new password: it applies the API's policy (a password the API refuses
 * says "Not accepted" and why) and helps choose well beyond it. The bar and its words change
 * together; the words are announced politely.
 */
export function PasswordStrength({ id, password, userInputs }: { id: string; password: string; userInputs: string[] }) {
  const [rate, setRate] = useState<Rate | null>(null);
  const inputsKey = userInputs.join('\n');

  useEffect(() => {
    if (password === '' || rate) return;
    let cancelled = false;
    void loadRate().then((loaded) => {
      if (!cancelled) setRate(() => loaded);
    });
    return () => {
      cancelled = true;
    };
  }, [password, rate]);

  const strength = rate && password !== '' ? rate(password, inputsKey.split('\n')) : null;
  const score = strength?.score ?? 0;
  return (
    <div className="strength" id={id}>
      <div className="strength-bar" data-score={strength ? score : undefined} aria-hidden="true">
        <span style={{ width: strength ? `${((score + 1) / 5) * 100}%` : '0%' }} />
      </div>
      <p className="strength-text" aria-live="polite">
        {strength ? (
          <>
            <strong>{strength.refused ? 'Not accepted' : LABELS[score]}</strong>
            {strength.advice ? ` · ${strength.advice}` : ''}
          </>
        ) : (
          'Use 8 or more characters. A few unrelated words make a strong password.'
        )}
      </p>
    </div>
  );
}

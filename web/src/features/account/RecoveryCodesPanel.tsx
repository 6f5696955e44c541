import { useState } from 'react';

/**
 * Ten new recovery codes, shown once: each signs in once instead of a code from the app. The
 * member copies or downloads them, then says they are kept; the page never shows them again.
 */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const text = `Lampstand recovery codes (each works once)\n\n${codes.join('\n')}\n`;
  const download = `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };

  return (
    <div className="recovery-codes" role="region" aria-labelledby="recovery-codes-title">
      <h3 id="recovery-codes-title">Your recovery codes</h3>
      <p role="alert">
        <strong>Save these now: you will not see them again.</strong> If you lose your phone, each code lets you log in
        once instead of a code from your app. Anyone who has them and your password can log in, so keep them private.
      </p>
      <ol className="recovery-codes-list" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="recovery-codes-actions">
        <button type="button" className="button button--quiet" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy codes'}
        </button>
        <a className="button button--quiet" href={download} download="lampstand-recovery-codes.txt">
          Download codes
        </a>
        <button type="button" className="button" onClick={onDone}>
          I have saved my codes
        </button>
      </div>
    </div>
  );
}

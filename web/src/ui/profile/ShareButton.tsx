import { useEffect, useState } from 'react';
import type { ShareResult } from './share';
import { canUseShareSheet, shareLink } from './share';

const CONFIRMATION_MS = 4000;

function ShareIcon() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      width="18"
      height="18"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      <path d="M12 3v12M7 8l5-5 5 5" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M5 13v6a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-6" strokeLinecap="round" />
    </svg>
  );
}

/** Shares the page, or copies its link where there is no share sheet, and says so on screen. */
export function ShareButton({ url, title, className }: { url: string; title: string; className?: string }) {
  const [result, setResult] = useState<ShareResult | null>(null);
  const [shareSheet] = useState(canUseShareSheet);

  useEffect(() => {
    if (result !== 'copied') return;
    const timer = setTimeout(() => {
      setResult(null);
    }, CONFIRMATION_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [result]);

  return (
    <div className="share">
      <button
        type="button"
        className={className}
        onClick={() => {
          void shareLink({ url, title }).then(setResult);
        }}
      >
        <ShareIcon />
        {shareSheet ? 'Share' : 'Copy link'}
      </button>
      <p className="share-status" role="status">
        {result === 'copied' && 'Link copied'}
        {result === 'failed' && (
          <>
            Copy this link: <span className="share-url">{url}</span>
          </>
        )}
      </p>
    </div>
  );
}

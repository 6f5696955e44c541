/** Lampstand's mark, a lamp's flame on its stand; decorative, the text beside it names it. */
export function BrandMark({ size = 28 }: { size?: number }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 64 64" width={size} height={size} className="brand-mark">
      <path d="M32 8c6 8 9 12 9 18a9 9 0 0 1-18 0c0-6 3-10 9-18z" fill="currentColor" />
      <rect x="28" y="37" width="8" height="13" rx="2" fill="currentColor" opacity=".7" />
      <rect x="19" y="51" width="26" height="5" rx="2.5" fill="currentColor" opacity=".7" />
    </svg>
  );
}

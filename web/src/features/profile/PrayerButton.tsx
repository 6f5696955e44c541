/**
 * "Send a prayer request" under a page whose owner turned it on. On the server-rendered page the
 * button is an island (islands.ts) and `onOpen` is left out; React's page passes it.
 */
export function PrayerButton({ prompt, onOpen }: { prompt: string; onOpen?: () => void }) {
  return (
    <aside className="prayer-request" aria-label="Prayer request">
      <p className="prayer-request-prompt">{prompt}</p>
      <button type="button" className="button" onClick={onOpen}>
        Send a prayer request
      </button>
    </aside>
  );
}

/**
 * "Send a prayer request" under a page whose owner turned it on. On the server-rendered page the
 * button is an island (islands.ts): the form and its code load only when a visitor opens it.
 */
export function PrayerButton({ prompt }: { prompt: string }) {
  return (
    <aside className="prayer-request" aria-label="Prayer request">
      <p className="prayer-request-prompt">{prompt}</p>
      <button type="button" className="button">
        Send a prayer request
      </button>
    </aside>
  );
}

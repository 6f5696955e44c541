import { lazy, Suspense, useState } from 'react';
import { PrayerButton } from './PrayerButton';

// Few visitors send one: the form, its GraphQL client and the solver load only for those who do.
const PrayerIsland = lazy(() => import('./PrayerIsland').then((m) => ({ default: m.PrayerIsland })));

/** The prayer button on the page React renders (no server rendering), opening the form in place. */
export function PrayerRequestLink({ username, prompt }: { username: string; prompt: string }) {
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <PrayerButton
        prompt={prompt}
        onOpen={() => {
          setOpen(true);
        }}
      />
    );
  }
  return (
    <aside className="prayer-request" aria-label="Prayer request">
      <Suspense fallback={<p>Loading the form…</p>}>
        <PrayerIsland username={username} prompt={prompt} />
      </Suspense>
    </aside>
  );
}

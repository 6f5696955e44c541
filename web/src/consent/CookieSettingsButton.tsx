import { useConsent } from './ConsentScope';

/** "Cookie settings" for a footer, where the site asks for consent (a tag manager is configured). */
export function CookieSettingsButton({ className = 'link-button' }: { className?: string }) {
  const consent = useConsent();
  if (!consent) return null;
  return (
    <button type="button" className={className} onClick={consent.showPreferences}>
      Cookie settings
    </button>
  );
}

/**
 * The pages of the web app (web/src/app/routes.tsx), so that the server answers 404 for any
 * other address while still sending the app, which shows its not-found page. A member's page is
 * `/@username`; tests/web/routes.test.ts keeps this list and the app's routes the same.
 */
export const APP_PAGES: readonly string[] = [
  '/',
  '/signup',
  '/login',
  '/forgot-password',
  '/reset-password',
  '/email-confirmed',
  '/welcome',
  '/profile',
  '/account',
  '/plus',
  '/stats',
  '/prayer-requests',
  '/playground',
  '/verse',
  '/saved',
];

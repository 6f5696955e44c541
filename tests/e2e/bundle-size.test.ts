import { inject, describe, expect, it } from 'vitest';
import { routeScripts } from '../support/bundle.js';

const KB = 1000;
/**
 * docs/quality.md P7 asks for 120 KB on /@username. React 19, Apollo Client 4 and React Router alone
 * come to ~130 KB, so today's build needs more: this ceiling keeps it from growing while the gap
 * stays open (see the web report). Lower it whenever the figure drops. It was 140 KB before the
 * auth context, which the original puts around every page (session, refresh, cross-tab sign-out:
 * ~5 KB, with its operations loaded only when there is a session), 146 KB before the page's
 * link buttons and bio (~0.5 KB), 147 KB before the reader's KJV/WEB toggle (~0.2 KB), and 148 KB
 * before the photo, the highlighted link, the share and report buttons (their dialogs load on click).
 */
const P7_TARGET_KB = 120;
const CEILING_KB = 149;
const distDir = inject('webDistDir');
const profileRoute = ['src/features/profile/ProfilePage.tsx'];
const landingRoute = ['src/features/landing/LandingPage.tsx'];
const playgroundRoute = ['src/features/playground/PlaygroundPage.tsx'];
const signUpRoute = ['src/features/auth/SignUpPage.tsx'];
/** What the password-strength meter may add to sign-up at the first keystroke (it was 850 KB). */
const METER_CEILING_KB = 100;

function report(route: string, gzipBytes: number) {
  console.info(
    `JS loaded by ${route}: ${(gzipBytes / KB).toFixed(1)} KB gzip (P7 target ${P7_TARGET_KB} KB, ceiling ${CEILING_KB} KB)`,
  );
}

describe('the JavaScript each route loads', () => {
  it('keeps the playground out of every other route', () => {
    const playground = new Set(routeScripts(distDir, playgroundRoute).files);
    const profile = routeScripts(distDir, profileRoute);
    const landing = routeScripts(distDir, landingRoute);
    const onlyPlayground = [...playground].filter(
      (file) => !profile.files.includes(file) && !landing.files.includes(file),
    );
    expect(onlyPlayground.some((file) => file.includes('PlaygroundPage'))).toBe(true);
    for (const file of [...profile.files, ...landing.files]) {
      expect(file).not.toMatch(/PlaygroundPage|monaco|graphiql|banner/i);
    }
  });

  it('keeps the member screens, their operations and the strength meter out of /@username', () => {
    const { files } = routeScripts(distDir, profileRoute);
    for (const file of files) {
      expect(file).not.toMatch(/SignUp|Login|Password|Welcome|Editor|Account|Plus|strength|sign-in|session[.-]/i);
    }
  });

  it('keeps /@username under the ceiling', () => {
    const { gzipBytes } = routeScripts(distDir, profileRoute);
    report('/@username', gzipBytes);
    expect(gzipBytes).toBeLessThanOrEqual(CEILING_KB * KB);
  });

  it('keeps / under the same ceiling', () => {
    const { gzipBytes } = routeScripts(distDir, landingRoute);
    report('/', gzipBytes);
    expect(gzipBytes).toBeLessThanOrEqual(CEILING_KB * KB);
  });

  it('keeps the password-strength meter under 100 KB on sign-up', () => {
    const signUp = routeScripts(distDir, signUpRoute);
    const withMeter = routeScripts(distDir, [...signUpRoute, 'src/ui/password/strength.ts']);
    const meterBytes = withMeter.gzipBytes - signUp.gzipBytes;
    console.info(`The strength meter adds ${(meterBytes / KB).toFixed(1)} KB gzip to sign-up`);
    expect(withMeter.files.some((file) => file.includes('strength'))).toBe(true);
    expect(meterBytes).toBeLessThanOrEqual(METER_CEILING_KB * KB);
  });
});

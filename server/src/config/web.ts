import { z } from 'zod';
import type { SectionEnv } from './fields.js';

/** What the web app is told at start besides the server's own addresses. */
export const webEnv = {
  GTM_CONTAINER_ID: z
    .string()
    .regex(/^GTM-[A-Z0-9]+$/, 'must look like GTM-XXXXXXX')
    .optional(),
  SUPPORT_EMAIL: z
    .string()
    .regex(/^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/, 'must be an email address such as help@example.org')
    .optional(),
};

/** `supportEmail`: where members ask for help (a lost phone), shown in the web app; none when undefined. */
export interface WebSettings {
  gtmContainerId: string | undefined;
  supportEmail: string | undefined;
}

export function webSettings(env: SectionEnv<typeof webEnv>): WebSettings {
  return { gtmContainerId: env.GTM_CONTAINER_ID, supportEmail: env.SUPPORT_EMAIL };
}

import type { UserRecord } from '../members/user.entity.js';
import { requirePlus } from '../members/plus.js';
import { ButtonStyle, PLUS_BUTTONS, PLUS_THEMES, Theme } from './appearance.js';

/** The Plus choices as members read them in the editor (web/src/features/editor/looks.ts). */
const PLUS_LABELS: Partial<Record<Theme | ButtonStyle, string>> = {
  [Theme.sunriseTheme]: 'The Sunrise theme',
  [Theme.gardenTheme]: 'The Garden theme',
  [ButtonStyle.goldButton]: 'The Gold button style',
};

/** Throws PLUS_REQUIRED when a free member picks a Plus-only theme or button style. */
export function requireAllowedAppearance(
  owner: Pick<UserRecord, 'stripeRole'>,
  choice: { theme?: Theme | null; button?: ButtonStyle | null },
): void {
  if (choice.theme != null && PLUS_THEMES.has(choice.theme))
    requirePlus(owner, PLUS_LABELS[choice.theme] ?? 'This theme');
  if (choice.button != null && PLUS_BUTTONS.has(choice.button))
    requirePlus(owner, PLUS_LABELS[choice.button] ?? 'This button style');
}

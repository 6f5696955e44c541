import type { ButtonStyle, Layout, Theme, Translation } from '../../gql/schema-types';

/** One choice of look in the editor; `plus` choices need Plus to be saved. */
export interface LookOption<T extends string> {
  value: T;
  label: string;
  plus: boolean;
}

export const THEMES: LookOption<Theme>[] = [
  { value: 'lightTheme', label: 'Light', plus: false },
  { value: 'darkTheme', label: 'Dark', plus: false },
  { value: 'sunriseTheme', label: 'Sunrise', plus: true },
  { value: 'gardenTheme', label: 'Garden', plus: true },
];

export const LAYOUTS: LookOption<Layout>[] = [
  { value: 'row', label: 'Side by side', plus: false },
  { value: 'column', label: 'Centred', plus: false },
];

export const BUTTONS: LookOption<ButtonStyle>[] = [
  { value: 'normalButton', label: 'Classic', plus: false },
  { value: 'roundedButton', label: 'Rounded', plus: false },
  { value: 'outlineButton', label: 'Outline', plus: false },
  { value: 'goldButton', label: 'Gold', plus: true },
];

/** The translations a page's verse can be shown in; visitors may still read it in the other. */
export const TRANSLATIONS: LookOption<Translation>[] = [
  { value: 'KJV', label: 'King James (KJV)', plus: false },
  { value: 'WEB', label: 'World English Bible (WEB)', plus: false },
];

/**
 * The choices a member is offered: Plus ones only where Plus is on sale or already theirs, and the
 * saved one always (a Plus look kept from before stays checked, and the note under it says why).
 */
export function offeredOptions<T extends string>(
  options: LookOption<T>[],
  { plus, billing, saved }: { plus: boolean; billing: boolean; saved: T },
): LookOption<T>[] {
  return options.filter((option) => !option.plus || plus || billing || option.value === saved);
}

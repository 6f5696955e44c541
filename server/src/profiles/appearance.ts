import { registerEnumType } from 'type-graphql';

/** Page themes, stored as the original's camelCase strings. */
export enum Theme {
  lightTheme = 'lightTheme',
  darkTheme = 'darkTheme',
  sunriseTheme = 'sunriseTheme',
  gardenTheme = 'gardenTheme',
}

export enum Layout {
  row = 'row',
  column = 'column',
}

export enum ButtonStyle {
  normalButton = 'normalButton',
  roundedButton = 'roundedButton',
  outlineButton = 'outlineButton',
  goldButton = 'goldButton',
}

/** Appearance every new profile starts with (the original's defaults). */
export const DEFAULT_APPEARANCE = {
  theme: Theme.lightTheme,
  layout: Layout.row,
  button: ButtonStyle.normalButton,
} as const;

/** Choices only Plus members may use; the server refuses them for others and renders defaults. */
export const PLUS_THEMES: ReadonlySet<Theme> = new Set([Theme.sunriseTheme, Theme.gardenTheme]);
export const PLUS_BUTTONS: ReadonlySet<ButtonStyle> = new Set([ButtonStyle.goldButton]);

registerEnumType(Theme, {
  name: 'Theme',
  description: 'The colours of a profile page.',
  valuesConfig: {
    lightTheme: { description: 'Light paper and dark ink (the default).' },
    darkTheme: { description: 'Dark background, light text.' },
    sunriseTheme: { description: 'Warm dawn colours. Plus only.' },
    gardenTheme: { description: 'Olive and sage greens. Plus only.' },
  },
});

registerEnumType(Layout, {
  name: 'Layout',
  description: 'How a profile page arranges its name and verse.',
  valuesConfig: {
    row: { description: 'Side by side on wide screens (the default).' },
    column: { description: 'Stacked, centred.' },
  },
});

registerEnumType(ButtonStyle, {
  name: 'ButtonStyle',
  description: "The shape of a profile page's buttons.",
  valuesConfig: {
    normalButton: { description: 'Slightly rounded, filled (the default).' },
    roundedButton: { description: 'Pill-shaped, filled.' },
    outlineButton: { description: 'Outlined.' },
    goldButton: { description: 'Filled with gold. Plus only.' },
  },
});

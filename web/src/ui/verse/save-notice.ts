/** Why signing up comes first, on the sign-up page a visitor reaches from "Save this verse". */
export const SAVE_NEEDS_ACCOUNT =
  'Saved verses are kept with your page, so make your page first: it is free, and the verse will be waiting on /saved.';

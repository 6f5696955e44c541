/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** How often a plan bills. */
export type BillingInterval =
  /** Daily. */
  | 'day'
  /** Monthly. */
  | 'month'
  /** Weekly. */
  | 'week'
  /** Yearly. */
  | 'year';

/** The shape of a profile page's buttons. */
export type ButtonStyle =
  /** Filled with gold. Plus only. */
  | 'goldButton'
  /** Slightly rounded, filled (the default). */
  | 'normalButton'
  /** Outlined. */
  | 'outlineButton'
  /** Pill-shaped, filled. */
  | 'roundedButton';

/** A password change: the current password proves it is you. */
export type ChangePasswordInput = {
  /** The password you sign in with now. */
  currentPassword: string;
  /** At least 8 characters, at most 72 bytes, not a common password. */
  newPassword: string;
};

/** How a profile page arranges its name and verse. */
export type Layout =
  /** Stacked, centred. */
  | 'column'
  /** Side by side on wide screens (the default). */
  | 'row';

/** Email and password of an account. */
export type LoginInput = {
  /** The email address of the account (any letter case). */
  email: string;
  /** Its password. */
  password: string;
};

/** Which sessions to end. */
export type LogoutScope =
  /** Every session of the account. */
  | 'global'
  /** This session only. */
  | 'local'
  /** Every other session; this one stays. */
  | 'others';

/** A member's subscription. */
export type Plan =
  /** No subscription. */
  | 'free'
  /** Lampstand Plus: Plus themes and button style, a pinned verse, the Plus badge. */
  | 'plus';

/** A new password, with the code or link token from the reset email. */
export type ResetPasswordInput = {
  /** The address the code was sent to (only with a code). */
  email?: string | null | undefined;
  /** At least 8 characters, at most 72 bytes, not a common password. */
  newPassword: string;
  /** The emailed link's `token_hash`, or the 6-digit code from the email (then give `email` too). */
  token: string;
};

/** A new account: its identity and the user record the original kept. */
export type SignUpInput = {
  /** Birthday as an ISO date, `YYYY-MM-DD`; you must be at least 13. */
  birthday?: string | null | undefined;
  /** The email address to sign in with. */
  email: string;
  /** First name, 1–50 characters. The profile name starts as this. */
  first: string;
  /** At least 8 characters, at most 72 bytes, not a common password. */
  password: string;
  /** The kind of client: `web`, `ios`, `android`, `api`, … */
  platform: string;
  /** The client's own identifier for the install or app. */
  platformID?: string | null | undefined;
  /** Your IANA time zone, so that your page's first verse is dated on your day. */
  timeZone?: string | null | undefined;
};

/** A Stripe subscription's status. */
export type SubscriptionStatus =
  /** Paid and running. */
  | 'active'
  /** Ended; no Plus. */
  | 'canceled'
  /** The first payment is not done yet; no Plus. */
  | 'incomplete'
  /** The first payment never completed; no Plus. */
  | 'incomplete_expired'
  /** A payment failed; Stripe retries it. Plus stays until `graceEndsAt`. */
  | 'past_due'
  /** Paused; no Plus. */
  | 'paused'
  /** In a free trial. */
  | 'trialing'
  /** Payments failed and Stripe stopped retrying; no Plus. */
  | 'unpaid';

/** The colours of a profile page. */
export type Theme =
  /** Dark background, light text. */
  | 'darkTheme'
  /** Olive and sage greens. Plus only. */
  | 'gardenTheme'
  /** Light paper and dark ink (the default). */
  | 'lightTheme'
  /** Warm dawn colours. Plus only. */
  | 'sunriseTheme';

/** Changes to your profile; leave out what stays the same. */
export type UpdateProfileInput = {
  /** Plus-only styles need Plus. */
  button?: ButtonStyle | null | undefined;
  /** Keep the page switched on (together with isPublic). */
  isActive?: boolean | null | undefined;
  /** Show the page to visitors (together with isActive). */
  isPublic?: boolean | null | undefined;
  /** Side by side (row) or stacked (column). */
  layout?: Layout | null | undefined;
  /** The name shown on your page, 1–50 characters. */
  name?: string | null | undefined;
  /** Plus-only themes need Plus. */
  theme?: Theme | null | undefined;
};

export type AuthSession_SessionFragment = { __typename: 'Session', accessToken: string, refreshToken: string, expiresAt: string, expiresIn: number };

export type AuthProfile_ProfileFragment = { __typename: 'Profile', username: string, name: string, theme: Theme, layout: Layout, button: ButtonStyle, isActive: boolean, isPublic: boolean, welcome: boolean, versePinned: boolean, joined: string, appearance: { __typename: 'Appearance', theme: Theme, layout: Layout, button: ButtonStyle } };

export type AuthMember_MemberFragment = { __typename: 'Member', plan: Plan, user: { __typename: 'User', uid: string, email: string, first: string, birthday: string | null, joined: string, platform: string, platformID: string | null }, profile: { __typename: 'Profile', username: string, name: string, theme: Theme, layout: Layout, button: ButtonStyle, isActive: boolean, isPublic: boolean, welcome: boolean, versePinned: boolean, joined: string, appearance: { __typename: 'Appearance', theme: Theme, layout: Layout, button: ButtonStyle } } };

export type AuthMeQueryVariables = Exact<{ [key: string]: never; }>;


export type AuthMeQuery = { __typename: 'Query', me: { __typename: 'Member', plan: Plan, user: { __typename: 'User', uid: string, email: string, first: string, birthday: string | null, joined: string, platform: string, platformID: string | null }, profile: { __typename: 'Profile', username: string, name: string, theme: Theme, layout: Layout, button: ButtonStyle, isActive: boolean, isPublic: boolean, welcome: boolean, versePinned: boolean, joined: string, appearance: { __typename: 'Appearance', theme: Theme, layout: Layout, button: ButtonStyle } } } | null };

export type RefreshSessionMutationVariables = Exact<{
  refreshToken: string;
}>;


export type RefreshSessionMutation = { __typename: 'Mutation', refreshSession: { __typename: 'AuthPayload', session: { __typename: 'Session', accessToken: string, refreshToken: string, expiresAt: string, expiresIn: number }, member: { __typename: 'Member', plan: Plan, user: { __typename: 'User', uid: string, email: string, first: string, birthday: string | null, joined: string, platform: string, platformID: string | null }, profile: { __typename: 'Profile', username: string, name: string, theme: Theme, layout: Layout, button: ButtonStyle, isActive: boolean, isPublic: boolean, welcome: boolean, versePinned: boolean, joined: string, appearance: { __typename: 'Appearance', theme: Theme, layout: Layout, button: ButtonStyle } } } } };

export type LogoutMutationVariables = Exact<{
  scope?: LogoutScope | null | undefined;
}>;


export type LogoutMutation = { __typename: 'Mutation', logout: boolean };

export type SignUpMutationVariables = Exact<{
  input: SignUpInput;
}>;


export type SignUpMutation = { __typename: 'Mutation', signUp: { __typename: 'SignUpPayload', confirmationSent: boolean, session: { __typename: 'Session', accessToken: string, refreshToken: string, expiresAt: string, expiresIn: number } | null, member: { __typename: 'Member', plan: Plan, user: { __typename: 'User', uid: string, email: string, first: string, birthday: string | null, joined: string, platform: string, platformID: string | null }, profile: { __typename: 'Profile', username: string, name: string, theme: Theme, layout: Layout, button: ButtonStyle, isActive: boolean, isPublic: boolean, welcome: boolean, versePinned: boolean, joined: string, appearance: { __typename: 'Appearance', theme: Theme, layout: Layout, button: ButtonStyle } } } | null } };

export type LoginMutationVariables = Exact<{
  input: LoginInput;
}>;


export type LoginMutation = { __typename: 'Mutation', login: { __typename: 'AuthPayload', session: { __typename: 'Session', accessToken: string, refreshToken: string, expiresAt: string, expiresIn: number }, member: { __typename: 'Member', plan: Plan, user: { __typename: 'User', uid: string, email: string, first: string, birthday: string | null, joined: string, platform: string, platformID: string | null }, profile: { __typename: 'Profile', username: string, name: string, theme: Theme, layout: Layout, button: ButtonStyle, isActive: boolean, isPublic: boolean, welcome: boolean, versePinned: boolean, joined: string, appearance: { __typename: 'Appearance', theme: Theme, layout: Layout, button: ButtonStyle } } } } };

export type RequestPasswordResetMutationVariables = Exact<{
  email: string;
}>;


export type RequestPasswordResetMutation = { __typename: 'Mutation', requestPasswordReset: { __typename: 'Notice', message: string } };

export type UpdateEmailMutationVariables = Exact<{
  email: string;
}>;


export type UpdateEmailMutation = { __typename: 'Mutation', updateEmail: { __typename: 'EmailChangePayload', pendingEmail: string, message: string } };

export type ChangePasswordMutationVariables = Exact<{
  input: ChangePasswordInput;
}>;


export type ChangePasswordMutation = { __typename: 'Mutation', changePassword: { __typename: 'AuthPayload', session: { __typename: 'Session', accessToken: string, refreshToken: string, expiresAt: string, expiresIn: number }, member: { __typename: 'Member', plan: Plan, user: { __typename: 'User', uid: string, email: string, first: string, birthday: string | null, joined: string, platform: string, platformID: string | null }, profile: { __typename: 'Profile', username: string, name: string, theme: Theme, layout: Layout, button: ButtonStyle, isActive: boolean, isPublic: boolean, welcome: boolean, versePinned: boolean, joined: string, appearance: { __typename: 'Appearance', theme: Theme, layout: Layout, button: ButtonStyle } } } } };

export type DeleteAccountMutationVariables = Exact<{
  password: string;
}>;


export type DeleteAccountMutation = { __typename: 'Mutation', deleteAccount: boolean };

export type ResetPasswordMutationVariables = Exact<{
  input: ResetPasswordInput;
}>;


export type ResetPasswordMutation = { __typename: 'Mutation', resetPassword: { __typename: 'AuthPayload', session: { __typename: 'Session', accessToken: string, refreshToken: string, expiresAt: string, expiresIn: number }, member: { __typename: 'Member', plan: Plan, user: { __typename: 'User', uid: string, email: string, first: string, birthday: string | null, joined: string, platform: string, platformID: string | null }, profile: { __typename: 'Profile', username: string, name: string, theme: Theme, layout: Layout, button: ButtonStyle, isActive: boolean, isPublic: boolean, welcome: boolean, versePinned: boolean, joined: string, appearance: { __typename: 'Appearance', theme: Theme, layout: Layout, button: ButtonStyle } } } } };

export type ProfileEditorQueryVariables = Exact<{
  timeZone?: string | null | undefined;
}>;


export type ProfileEditorQuery = { __typename: 'Query', me: { __typename: 'Member', profile: { __typename: 'Profile', username: string, name: string, theme: Theme, layout: Layout, button: ButtonStyle, isActive: boolean, isPublic: boolean, welcome: boolean, versePinned: boolean, joined: string, verse: { __typename: 'Verse', id: string, ref: string, text: string, translation: string }, appearance: { __typename: 'Appearance', theme: Theme, layout: Layout, button: ButtonStyle } } } | null };

export type UpdateProfileMutationVariables = Exact<{
  input: UpdateProfileInput;
}>;


export type UpdateProfileMutation = { __typename: 'Mutation', updateProfile: { __typename: 'Profile', username: string, name: string, theme: Theme, layout: Layout, button: ButtonStyle, isActive: boolean, isPublic: boolean, welcome: boolean, versePinned: boolean, joined: string, appearance: { __typename: 'Appearance', theme: Theme, layout: Layout, button: ButtonStyle } } };

export type ChangeUsernameMutationVariables = Exact<{
  username: string;
}>;


export type ChangeUsernameMutation = { __typename: 'Mutation', changeUsername: { __typename: 'Profile', username: string, name: string, theme: Theme, layout: Layout, button: ButtonStyle, isActive: boolean, isPublic: boolean, welcome: boolean, versePinned: boolean, joined: string, appearance: { __typename: 'Appearance', theme: Theme, layout: Layout, button: ButtonStyle } } };

export type PinVerseMutationVariables = Exact<{
  ref: string;
  timeZone?: string | null | undefined;
}>;


export type PinVerseMutation = { __typename: 'Mutation', pinVerse: { __typename: 'Profile', username: string, name: string, theme: Theme, layout: Layout, button: ButtonStyle, isActive: boolean, isPublic: boolean, welcome: boolean, versePinned: boolean, joined: string, verse: { __typename: 'Verse', id: string, ref: string, text: string, translation: string }, appearance: { __typename: 'Appearance', theme: Theme, layout: Layout, button: ButtonStyle } } };

export type UnpinVerseMutationVariables = Exact<{
  timeZone?: string | null | undefined;
}>;


export type UnpinVerseMutation = { __typename: 'Mutation', unpinVerse: { __typename: 'Profile', username: string, name: string, theme: Theme, layout: Layout, button: ButtonStyle, isActive: boolean, isPublic: boolean, welcome: boolean, versePinned: boolean, joined: string, verse: { __typename: 'Verse', id: string, ref: string, text: string, translation: string }, appearance: { __typename: 'Appearance', theme: Theme, layout: Layout, button: ButtonStyle } } };

export type LandingPageQueryVariables = Exact<{
  timeZone?: string | null | undefined;
}>;


export type LandingPageQuery = { __typename: 'Query', verseOfTheDay: { __typename: 'Verse', id: string, ref: string, text: string, translation: string } };

export type PlusPlans_PlanFragment = { __typename: 'PlusPlan', priceId: string, name: string, description: string | null, amount: number | null, currency: string, interval: BillingInterval, intervalCount: number };

export type PlusStanding_SubscriptionFragment = { __typename: 'PlusSubscription', plan: Plan, granted: boolean, status: SubscriptionStatus | null, priceId: string | null, currentPeriodEnd: string | null, cancelAtPeriodEnd: boolean, graceEndsAt: string | null, canManageBilling: boolean };

export type PlusPagePlansQueryVariables = Exact<{ [key: string]: never; }>;


export type PlusPagePlansQuery = { __typename: 'Query', plans: Array<{ __typename: 'PlusPlan', priceId: string, name: string, description: string | null, amount: number | null, currency: string, interval: BillingInterval, intervalCount: number }> };

export type PlusPageSubscriptionQueryVariables = Exact<{ [key: string]: never; }>;


export type PlusPageSubscriptionQuery = { __typename: 'Query', subscription: { __typename: 'PlusSubscription', plan: Plan, granted: boolean, status: SubscriptionStatus | null, priceId: string | null, currentPeriodEnd: string | null, cancelAtPeriodEnd: boolean, graceEndsAt: string | null, canManageBilling: boolean } };

export type StartCheckoutMutationVariables = Exact<{
  priceId: string | number;
}>;


export type StartCheckoutMutation = { __typename: 'Mutation', startCheckout: { __typename: 'BillingRedirect', url: string } };

export type OpenBillingPortalMutationVariables = Exact<{ [key: string]: never; }>;


export type OpenBillingPortalMutation = { __typename: 'Mutation', openBillingPortal: { __typename: 'BillingRedirect', url: string } };

export type ProfilePageQueryVariables = Exact<{
  username: string;
  timeZone?: string | null | undefined;
}>;


export type ProfilePageQuery = { __typename: 'Query', profile: { __typename: 'PublicProfile', username: string, name: string, plus: boolean, versePinned: boolean, joined: string, appearance: { __typename: 'Appearance', theme: Theme, layout: Layout, button: ButtonStyle }, verse: { __typename: 'Verse', id: string, ref: string, text: string, translation: string } } | null };

export type ProfileView_ProfileFragment = { __typename: 'PublicProfile', username: string, name: string, plus: boolean, versePinned: boolean, joined: string, appearance: { __typename: 'Appearance', theme: Theme, layout: Layout, button: ButtonStyle }, verse: { __typename: 'Verse', id: string, ref: string, text: string, translation: string } };

export type VerseCard_VerseFragment = { __typename: 'Verse', id: string, ref: string, text: string, translation: string };

export type CompleteWelcomeMutationVariables = Exact<{ [key: string]: never; }>;


export type CompleteWelcomeMutation = { __typename: 'Mutation', completeWelcome: { __typename: 'Profile', username: string, name: string, theme: Theme, layout: Layout, button: ButtonStyle, isActive: boolean, isPublic: boolean, welcome: boolean, versePinned: boolean, joined: string, appearance: { __typename: 'Appearance', theme: Theme, layout: Layout, button: ButtonStyle } } };

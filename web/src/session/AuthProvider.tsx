import { ApolloProvider } from '@apollo/client/react';
import { createContext, useContext, useEffect, useMemo, useSyncExternalStore } from 'react';
import type { ReactNode } from 'react';
import { PageLoading } from '../ui/PageLoading';
import type { AuthMember_MemberFragment } from './session.generated';
import type { SignUpInput } from '../gql/schema-types';
import type { AuthClient } from './auth-client';
import { ANONYMOUS } from './auth-link';

export type AuthUser = AuthMember_MemberFragment['user'];
export type AuthProfile = AuthMember_MemberFragment['profile'];

/** What signing up led to: signed in, or a confirmation link on its way. */
export type SignUpOutcome = 'signedIn' | 'confirmationSent';

/**
 * What a password sign-in led to: signed in, or a code from the authenticator app is needed
 * first (`mfaToken` is the half-signed-in session's token, for `verifySignInCode` only).
 */
export type LoginOutcome = { status: 'signedIn' } | { status: 'mfaRequired'; mfaToken: string };

/** The original's auth context, plus what our screens need of the session. */
export interface AuthContextValue {
  /** True until the first auth state is known (children render only after it). */
  loading: boolean;
  /** True while a session exists, even before the member's records have arrived. */
  signedIn: boolean;
  user: AuthUser | null;
  username: string | null;
  profile: AuthProfile | null;
  /**
   * Whether the member has Plus: the client's one answer, the access token's `stripeRole` claim
   * (`plus`). AuthClient renews the token whenever the plan may have changed (sign-in, a tab coming
   * back, back from checkout); the Plus screen reads billing details, not a second flag.
   */
  stripe: boolean;
  /** The member's records could not be loaded (the session itself is fine). */
  memberError: Error | null;
  retryMember: () => void;
  signUp: (input: Omit<SignUpInput, 'platform'>) => Promise<SignUpOutcome>;
  login: (email: string, password: string) => Promise<LoginOutcome>;
  /** Signs in with the 6-digit code of a sign-in email; two-factor sign-in still asks for its code. */
  signInWithEmailCode: (email: string, code: string) => Promise<LoginOutcome>;
  /** Sets a new password with the 6-digit code of a reset email, and signs in (other sessions end). */
  resetPasswordWithCode: (email: string, code: string, newPassword: string) => Promise<LoginOutcome>;
  /** Finishes a two-factor sign-in with the app's 6-digit code. */
  verifySignInCode: (mfaToken: string, code: string) => Promise<void>;
  /** Finishes a two-factor sign-in with one of the account's recovery codes (spent by it). */
  verifySignInRecoveryCode: (mfaToken: string, code: string) => Promise<void>;
  /** Finishes a two-factor sign-in with a passkey of the account. */
  verifySignInPasskey: (mfaToken: string) => Promise<void>;
  /** Signs in with a passkey alone (the browser offers this site's passkeys). */
  signInWithPasskey: () => Promise<void>;
  logout: () => Promise<void>;
  /** Emails a reset link; resolves with the message to show (`Please check your inbox.`). */
  requestPasswordReset: (email: string) => Promise<string>;
  /** Emails a sign-in link; resolves with the message to show, whatever the address. */
  requestSignInLink: (email: string) => Promise<string>;
  /** The client itself, for screens whose answers carry a new session (reset, change password). */
  client: AuthClient;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth() needs an <AuthProvider> above it');
  return value;
}

/** Sign-in operations load with the screens that use them, not with every page (quality.md P7). */
const signInOperations = () => import('./sign-in.generated');
/** Passkey ceremonies (and @simplewebauthn/browser) load only when a passkey is used. */
const passkeyOperations = () => import('./passkeys');

function AuthState({ client, children }: { client: AuthClient; children: ReactNode }) {
  // The server renders with a client that holds no session, and the browser takes its markup over
  // only when it holds none either: the snapshot then reads the same on both sides.
  const snapshot = useSyncExternalStore(client.subscribe, client.getSnapshot, client.getSnapshot);
  useEffect(() => client.start(), [client]);

  const value = useMemo<AuthContextValue>(
    () => ({
      loading: snapshot.status === 'loading',
      signedIn: snapshot.status === 'signedIn',
      user: snapshot.member?.user ?? null,
      username: snapshot.member?.profile.username ?? null,
      profile: snapshot.member?.profile ?? null,
      stripe: snapshot.stripe,
      memberError: snapshot.memberError,
      retryMember: () => {
        client.reloadMember();
      },
      client,
      async signUp(input) {
        const { SignUpDocument } = await signInOperations();
        const { data } = await client.apollo.mutate({
          mutation: SignUpDocument,
          variables: { input: { ...input, platform: 'web' } },
          context: ANONYMOUS,
        });
        const session = data?.signUp.session;
        if (!session) return 'confirmationSent';
        await client.signIn(session);
        return 'signedIn';
      },
      async login(email, password) {
        const { LoginDocument } = await signInOperations();
        const { data } = await client.apollo.mutate({
          mutation: LoginDocument,
          variables: { input: { email, password } },
          context: ANONYMOUS,
        });
        if (!data) throw new Error('login answered no data');
        const { session } = data.login;
        // The member is not signed in here until the second factor passes.
        if (session.mfaRequired) return { status: 'mfaRequired', mfaToken: session.accessToken };
        await client.signIn(session);
        return { status: 'signedIn' };
      },
      async signInWithEmailCode(email, code) {
        const { SignInWithEmailCodeDocument } = await signInOperations();
        const { data } = await client.apollo.mutate({
          mutation: SignInWithEmailCodeDocument,
          variables: { input: { email, code } },
          context: ANONYMOUS,
        });
        if (!data) throw new Error('signInWithEmailCode answered no data');
        const { session } = data.signInWithEmailCode;
        if (session.mfaRequired) return { status: 'mfaRequired', mfaToken: session.accessToken };
        await client.signIn(session);
        return { status: 'signedIn' };
      },
      async resetPasswordWithCode(email, code, newPassword) {
        const { ResetPasswordWithCodeDocument } = await signInOperations();
        const { data } = await client.apollo.mutate({
          mutation: ResetPasswordWithCodeDocument,
          variables: { input: { email, token: code, newPassword } },
          context: ANONYMOUS,
        });
        if (!data) throw new Error('resetPassword answered no data');
        const { session } = data.resetPassword;
        if (session.mfaRequired) return { status: 'mfaRequired', mfaToken: session.accessToken };
        await client.signIn(session);
        return { status: 'signedIn' };
      },
      async verifySignInCode(mfaToken, code) {
        const { VerifyMfaSignInDocument } = await signInOperations();
        const { data } = await client.apollo.mutate({
          mutation: VerifyMfaSignInDocument,
          variables: { code },
          context: { ...ANONYMOUS, headers: { authorization: `Bearer ${mfaToken}` } },
        });
        if (!data) throw new Error('verifyMfa answered no data');
        await client.signIn(data.verifyMfa.session);
      },
      async verifySignInRecoveryCode(mfaToken, code) {
        const { VerifyRecoveryCodeSignInDocument } = await signInOperations();
        const { data } = await client.apollo.mutate({
          mutation: VerifyRecoveryCodeSignInDocument,
          variables: { code },
          context: { ...ANONYMOUS, headers: { authorization: `Bearer ${mfaToken}` } },
        });
        if (!data) throw new Error('verifyRecoveryCode answered no data');
        await client.signIn(data.verifyRecoveryCode.session);
      },
      async verifySignInPasskey(mfaToken) {
        const { verifyWithPasskey } = await passkeyOperations();
        const session = await verifyWithPasskey(mfaToken);
        await client.signIn({ refreshToken: session.refresh_token });
      },
      async signInWithPasskey() {
        const passkeys = await passkeyOperations();
        const session = await passkeys.signInWithPasskey();
        await client.signIn({ refreshToken: session.refresh_token });
      },
      logout: () => client.signOut(),
      async requestPasswordReset(email) {
        const { RequestPasswordResetDocument } = await signInOperations();
        const { data } = await client.apollo.mutate({
          mutation: RequestPasswordResetDocument,
          variables: { email },
          context: ANONYMOUS,
        });
        if (!data) throw new Error('requestPasswordReset answered no data');
        return data.requestPasswordReset.message;
      },
      async requestSignInLink(email) {
        const { RequestSignInLinkDocument } = await signInOperations();
        const { data } = await client.apollo.mutate({
          mutation: RequestSignInLinkDocument,
          variables: { email },
          context: ANONYMOUS,
        });
        if (!data) throw new Error('requestSignInLink answered no data');
        return data.requestSignInLink.message;
      },
    }),
    [client, snapshot],
  );

  return <AuthContext value={value}>{value.loading ? <PageLoading /> : children}</AuthContext>;
}

/**
 * Every page sits inside this: it owns the Apollo client (whose link reads the member's token)
 * and offers the auth state through `useAuth()`. Pages render once the first state is known.
 */
export function AuthProvider({ client, children }: { client: AuthClient; children: ReactNode }) {
  return (
    <ApolloProvider client={client.apollo}>
      <AuthState client={client}>{children}</AuthState>
    </ApolloProvider>
  );
}

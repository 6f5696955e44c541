/*
 * The session in the browser is hand-made, kept rather than replaced by supabase-js's browser auth
 * (GoTrueClient with its storage, refresh timer and cross-tab lock), because:
 * - sessions come from this API, not from Supabase Auth: log-in, sign-up, links and refresh are
 *   GraphQL mutations, so the server applies its sign-in limits, reads the member with the session
 *   and speaks one protocol in both identity modes; supabase-js in the browser would call /auth/v1
 *   directly (the anon key, CORS for hosted Supabase, limits applied by the caller's goodwill);
 * - supabase-js's auth client (auth-js alone: about 25 KB gzip, minified) would be added to every
 *   signed-in page, and its refresh would still need the member's cache cleared and `me` re-read on
 *   a change of member, which it does not do;
 * - what it would bring (storage, refresh before expiry, a cross-tab lock) is here already in three
 *   small parts: `session.ts` (the stored session), `refresh-scheduler.ts` (when to refresh, and the
 *   Web Locks lock) and `auth-state.ts` (the snapshot React reads); this file ties them to Apollo.
 */
import type { ApolloClient } from '@apollo/client';
import type { Subscription } from 'rxjs';
import { createApolloClient } from '../lib/apollo';
import { isSessionRefused } from '../lib/errors';
import type { TokenSource } from './auth-link';
import { ANONYMOUS, createAuthLink } from './auth-link';
import type { AuthSnapshot, SessionMark, SessionPayload } from './auth-state';
import { AuthState, SIGNED_OUT } from './auth-state';
import type { LiveLink } from './live-link';
import { createLiveLink } from './live-link';
import { RefreshScheduler, withRefreshLock } from './refresh-scheduler';
import type { Session } from './session';
import { isPlus, readClaims, sessionFromPayload, SessionStore } from './session';

export type { AuthSnapshot, AuthStatus, SessionMark, SessionPayload } from './auth-state';

/** Longest a session refresh may take before it fails (and frees the lock for the next try). */
const REFRESH_TIMEOUT_MS = 15_000;

/**
 * The session's operations load only when there is a session (or one is being made), so that
 * visitors' pages do not download them (quality.md P7).
 */
const sessionOperations = () => import('./session.generated');

/** What a locked refresh came to. */
type Refreshed = 'refreshed' | 'takenFromOtherTab' | 'signedOut';

/**
 * The member's session and the GraphQL client that carries it. It restores the session at start,
 * refreshes it before it expires (and when the tab comes back after missing that moment, or after
 * a minute or more away, since the plan may have changed meanwhile), follows other tabs through
 * localStorage, and ends it locally when the server refuses it. React reads it through
 * AuthProvider; the Apollo link reads the token from it on every request.
 */
export class AuthClient {
  readonly apollo: ApolloClient;
  private readonly store: SessionStore;
  private readonly state: AuthState;
  private readonly refreshes: RefreshScheduler;
  /** The subscriptions' WebSocket, opened by the first subscription and following the session. */
  private readonly live: LiveLink;
  private renewal: Promise<boolean> | null = null;
  private restoring: Promise<void> | null = null;
  private watching: Subscription | null = null;
  /**
   * Counts sign-outs (and sessions ended elsewhere), so that a refresh begun before one cannot
   * sign the member back in when it answers.
   */
  private epoch = 0;

  /**
   * `storage: null` keeps no session (the server renders pages for a visitor signed out);
   * `ssrMode` makes the GraphQL client read only what was put in its cache (see createApolloClient).
   */
  constructor(options: { storage?: Storage | null; ssrMode?: boolean } = {}) {
    this.store = new SessionStore(options.storage === undefined ? localStorage : options.storage);
    const stored = this.store.read();
    this.state = new AuthState(
      stored ? { ...SIGNED_OUT, status: 'loading', session: stored, stripe: isPlus(stored) } : SIGNED_OUT,
    );
    this.subscribe = this.state.subscribe;
    this.getSnapshot = this.state.getSnapshot;
    this.refreshes = new RefreshScheduler({
      session: () => this.snapshot.session,
      signedInSession: () => (this.snapshot.status === 'signedIn' ? this.snapshot.session : null),
      renew: () => void this.renew(),
    });
    const tokens: TokenSource = {
      accessToken: () => this.snapshot.session?.accessToken ?? null,
      renew: (rejected) => this.renewAfterRejection(rejected),
    };
    this.live = createLiveLink(tokens);
    this.apollo = createApolloClient(createAuthLink(tokens), { ssrMode: options.ssrMode, live: this.live.link });
  }

  readonly subscribe: AuthState['subscribe'];
  readonly getSnapshot: AuthState['getSnapshot'];

  private get snapshot(): AuthSnapshot {
    return this.state.getSnapshot();
  }

  /**
   * Starts following the session: restores a stored one (force-refreshed, as at every sign-in),
   * schedules refreshes, and listens to other tabs and to the tab coming back. Returns the stop.
   */
  start(): () => void {
    const stored = this.snapshot.status === 'loading' ? this.snapshot.session : null;
    if (stored) this.restoring ??= this.restore(stored);
    else this.refreshes.schedule();
    const stopStorage = this.store.onOtherTabChange((session) => {
      this.followOtherTab(session);
    });
    const stopTab = this.refreshes.watchTab();
    return () => {
      stopStorage();
      stopTab();
    };
  }

  /** Asks the API for the member again (after a failure to load it). */
  reloadMember(): void {
    this.watching?.unsubscribe();
    this.watching = null;
    this.set({ ...this.snapshot, memberError: null });
    void this.watchMember();
  }

  /**
   * Signs in with a session the API gave (log-in, sign-up, reset, email link): force-refreshes it,
   * reads its claims, and puts the member in the cache before anyone sees the new state.
   */
  async signIn(session: Pick<Session, 'refreshToken'>): Promise<void> {
    // This token is new to the browser (no other tab has it), so there is no stored one to prefer.
    await this.refreshLocked(session.refreshToken, { epoch: this.epoch, shared: false });
  }

  /**
   * Marks the session as it is before a request whose answer replaces it (a password change), so
   * that `accept` can tell whether the member signed out meanwhile, here or in another tab.
   */
  mark(): SessionMark {
    return { epoch: this.epoch };
  }

  /**
   * Takes a payload whose session replaces the current one (a password change ends the others),
   * without another refresh, unless the member has signed out since `mark`; true when it did.
   */
  accept(payload: SessionPayload, mark: SessionMark): Promise<boolean> {
    return this.install(payload, mark.epoch);
  }

  /** Makes `payload` the session, unless the member has signed out since `epoch`; true when it did. */
  private async install(payload: SessionPayload, epoch: number): Promise<boolean> {
    const previous = this.snapshot.session ? readClaims(this.snapshot.session.accessToken)?.sub : undefined;
    const next = payload.member?.user.uid ?? readClaims(payload.session.accessToken)?.sub;
    if (previous !== undefined && previous !== next) await this.stopWatching('clear');
    const { AuthMeDocument } = await sessionOperations();
    if (this.epoch !== epoch) return false;
    // Without the member in the answer, `me` is read as on any start (watchMember below).
    if (payload.member) {
      this.apollo.writeQuery({ query: AuthMeDocument, data: { __typename: 'Query', me: payload.member } });
    }
    const session = sessionFromPayload(payload.session);
    this.store.write(session);
    const member = payload.member ?? (previous === next ? this.snapshot.member : null);
    this.set({ status: 'signedIn', session, stripe: isPlus(session), member, memberError: null });
    this.refreshes.schedule();
    void this.watchMember();
    return true;
  }

  /**
   * Signs out as the original did: forgets the member (state and cache) first, then ends the
   * session at the server. Other tabs follow through localStorage.
   */
  async signOut(): Promise<void> {
    const session = this.snapshot.session;
    await this.forget();
    if (!session) return;
    try {
      // A token that has run out (a laptop waking) cannot end the session: the refresh token gets a
      // live one first, or the server's session would stay open until the refresh token expires.
      const token =
        Date.now() < session.expiresAt
          ? session.accessToken
          : (await this.refreshWith(session.refreshToken)).session.accessToken;
      const { LogoutDocument } = await sessionOperations();
      await this.apollo.mutate({
        mutation: LogoutDocument,
        context: { ...ANONYMOUS, headers: { authorization: `Bearer ${token}` } },
      });
    } catch (error) {
      // This browser has forgotten the session; an unreachable server lets it lapse on its own.
      console.warn('Signing out at the server failed', error);
    }
  }

  /** Ends the session in this browser only: the server has refused it, or the account is gone. */
  async forget(): Promise<void> {
    this.epoch += 1;
    this.refreshes.cancel();
    this.store.write(null);
    this.set(SIGNED_OUT);
    // Reset, not clear: clearing aborts the queries in flight (the home page's verse, which starts
    // as the member leaves); resetting runs them again without the member's data, and each query
    // reports its own failure to its screen.
    await this.stopWatching('reset');
  }

  /**
   * Follows `me` in the cache, so that every change a screen makes there (a new name, a new
   * username) reaches `useAuth()`.
   */
  private async watchMember(): Promise<void> {
    if (this.isWatching()) return;
    const { AuthMeDocument } = await sessionOperations();
    // Another call may have started watching, or the member signed out, while the module loaded.
    if (this.isWatching() || this.snapshot.status !== 'signedIn') return;
    this.watching = this.apollo.watchQuery({ query: AuthMeDocument }).subscribe((result) => {
      if (this.snapshot.status !== 'signedIn') return;
      if (result.dataState === 'complete') {
        // A valid token whose account is gone (deleted elsewhere) is no session to keep.
        if (result.data.me === null) void this.forget();
        else this.set({ ...this.snapshot, member: result.data.me, memberError: null });
      } else if (result.error) {
        this.set({ ...this.snapshot, memberError: result.error });
      }
    });
  }

  private isWatching(): boolean {
    return this.watching !== null;
  }

  private async stopWatching(cache: 'clear' | 'reset'): Promise<void> {
    this.watching?.unsubscribe();
    this.watching = null;
    if (cache === 'clear') await this.apollo.clearStore();
    else await this.apollo.resetStore().catch(() => undefined);
  }

  /** Refreshes the session once for everyone asking at the same time; false when it has ended. */
  renew(): Promise<boolean> {
    this.renewal ??= this.refreshNow().finally(() => {
      this.renewal = null;
    });
    return this.renewal;
  }

  private async renewAfterRejection(rejected: string): Promise<boolean> {
    // Another request may have renewed the session while this one was on its way.
    if (this.snapshot.session && this.snapshot.session.accessToken !== rejected) return true;
    return this.renew();
  }

  private async refreshNow(): Promise<boolean> {
    const current = this.snapshot.session;
    if (!current) return false;
    const epoch = this.epoch;
    try {
      return (await this.refreshLocked(current.refreshToken, { epoch, shared: true })) !== 'signedOut';
    } catch (error) {
      if (this.epoch !== epoch) return false;
      if (isSessionRefused(error)) {
        await this.forget();
      } else {
        this.refreshes.retryLater();
      }
      return false;
    }
  }

  /**
   * Spends `refreshToken` and takes the new session, holding the refresh lock until the new token is
   * stored for the next tab to read. A refresh token works once (a replay after the server's reuse
   * interval ends the whole session), so a `shared` token, the stored one every tab holds, is not
   * spent when another tab has refreshed it meanwhile: that tab's session is taken instead. Nothing
   * is spent or taken once the member has signed out since `epoch`.
   */
  private refreshLocked(refreshToken: string, options: { epoch: number; shared: boolean }): Promise<Refreshed> {
    return withRefreshLock(async () => {
      if (this.epoch !== options.epoch) return 'signedOut';
      const stored = options.shared ? this.store.read() : null;
      if (stored && stored.refreshToken !== refreshToken) {
        this.followOtherTab(stored);
        return 'takenFromOtherTab';
      }
      const payload = await this.refreshWith(refreshToken);
      return (await this.install(payload, options.epoch)) ? 'refreshed' : 'signedOut';
    });
  }

  private async refreshWith(refreshToken: string): Promise<SessionPayload> {
    const { RefreshSessionDocument } = await sessionOperations();
    const { data } = await this.apollo.mutate({
      mutation: RefreshSessionDocument,
      variables: { refreshToken },
      // The refresh holds the cross-tab lock: a request that never answers must not hold it forever.
      context: { ...ANONYMOUS, fetchOptions: { signal: AbortSignal.timeout(REFRESH_TIMEOUT_MS) } },
    });
    if (!data) throw new Error('refreshSession answered no data');
    return data.refreshSession;
  }

  private async restore(stored: Session): Promise<void> {
    const epoch = this.epoch;
    try {
      await this.refreshLocked(stored.refreshToken, { epoch, shared: true });
    } catch (error) {
      if (this.epoch !== epoch) return;
      if (isSessionRefused(error)) {
        await this.forget();
      } else {
        // Offline at start: keep the stored session; the next request or timer renews or ends it.
        this.set({ ...SIGNED_OUT, status: 'signedIn', session: stored, stripe: isPlus(stored) });
        this.refreshes.retryLater();
        void this.watchMember();
      }
    }
  }

  /** Another tab signed in, refreshed or signed out. */
  private followOtherTab(session: Session | null): void {
    if (!session) {
      if (this.snapshot.session) void this.forget();
      return;
    }
    if (session.refreshToken === this.snapshot.session?.refreshToken) return;
    const previous = this.snapshot.session ? readClaims(this.snapshot.session.accessToken)?.sub : undefined;
    const sameMember = this.snapshot.status === 'signedIn' && previous === readClaims(session.accessToken)?.sub;
    if (sameMember) {
      this.set({ ...this.snapshot, session, stripe: isPlus(session) });
      this.refreshes.schedule();
      return;
    }
    // A different member (or a first sign-in) needs its own data, not what the cache holds.
    this.set({ ...SIGNED_OUT, status: 'signedIn', session, stripe: isPlus(session) });
    this.refreshes.schedule();
    void this.stopWatching('clear').then(() => this.watchMember());
  }

  private set(snapshot: AuthSnapshot): void {
    const before = this.snapshot.session?.accessToken ?? null;
    const after = snapshot.session?.accessToken ?? null;
    this.state.set(snapshot);
    // The server reads the token once, when the socket opens: a new one needs a new connection,
    // and a session that ended must not keep one open.
    if (after === null) this.live.close();
    else if (before !== after) this.live.restart();
  }
}

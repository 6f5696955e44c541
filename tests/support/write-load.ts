// A mixed write load against a running server that remembers what the client saw: which writes
// were acknowledged (answered without an error), refused (answered with a coded error) or left
// without an answer (the connection broke). The durability tests (F9, F10) compare it with what
// the database holds afterwards.
import { GOOD_PASSWORD, uniqueEmail } from './identity.js';
import type { SignUpData, SignedUpMember } from './members.js';
import { SIGN_UP } from './members.js';
import type { ServerProcess } from './server-process.js';
import type { Stored } from './stored.js';
import { MAX_LINKS } from '../../server/src/links/link-rules.js';

const UPDATE_BIO = 'mutation ($input: UpdateProfileInput!) { updateProfile(input: $input) { bio } }';
const ADD_LINK = 'mutation ($input: LinkInput!) { addLink(input: $input) { id title } }';
const UPDATE_LINK = 'mutation ($id: ID!, $input: UpdateLinkInput!) { updateLink(id: $id, input: $input) { id title } }';

/** A browser's user agent: clicks from scripts without one are not counted. */
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

export type Outcome = 'acknowledged' | 'refused' | 'unanswered';

export interface Attempt {
  /** What the write set: a bio, an email signed up, a link title. */
  value: string;
  outcome: Outcome;
  /** The error code of a refused write. */
  code?: string;
}

export interface EditorLog {
  uid: string;
  /** The member's bio updates, in the order they were sent (one at a time). */
  bios: Attempt[];
}

export interface LinkLog {
  uid: string;
  /** The link's id once its creation was acknowledged. */
  id?: string;
  /** Its creation (value: the first title) and then its title changes, one at a time. */
  titles: Attempt[];
}

type Target = Pick<ServerProcess, 'graphql' | 'url'>;

interface Answer {
  status?: number;
  data?: unknown;
  errors?: { extensions?: Record<string, unknown> }[];
}

/** Sends one write and classifies what came back. */
async function attempt<T extends Answer>(
  send: () => Promise<T>,
): Promise<{ outcome: Outcome; code?: string; answer?: T }> {
  let answer: T;
  try {
    answer = await send();
  } catch {
    return { outcome: 'unanswered' };
  }
  const error = answer.errors?.[0];
  if (error) return { outcome: 'refused', code: String(error.extensions?.code), answer };
  return { outcome: 'acknowledged', answer };
}

/**
 * Runs writers until `stop()`: each editor updates its bio over and over, each link member adds a
 * link and retitles it, sign-ups sign new members up, and clickers follow the links acknowledged
 * so far. Every writer sends one request at a time, so at most one of its writes is unanswered
 * when the server dies.
 */
export class WriteLoad {
  readonly editors: EditorLog[] = [];
  readonly links: LinkLog[] = [];
  readonly signUps: Attempt[] = [];
  /** Clicks sent (each answered or not). */
  clicks = 0;
  private running = true;
  private readonly workers: Promise<void>[] = [];

  constructor(
    private readonly target: Target,
    options: { editors: SignedUpMember[]; linkMembers: SignedUpMember[]; signUpWorkers: number; clickers?: number },
  ) {
    for (const member of options.editors) this.workers.push(this.edit(member));
    for (const member of options.linkMembers) this.workers.push(this.editLinks(member));
    for (let i = 0; i < options.signUpWorkers; i++) this.workers.push(this.signUp());
    for (let i = 0; i < (options.clickers ?? 0); i++) this.workers.push(this.click());
  }

  /** Every write of every kind, for counting outcomes. */
  all(): Attempt[] {
    return [
      ...this.editors.flatMap((editor) => editor.bios),
      ...this.links.flatMap((link) => link.titles),
      ...this.signUps,
    ];
  }

  count(outcome: Outcome): number {
    return this.all().filter((each) => each.outcome === outcome).length;
  }

  /** Whether the writers go on (read afresh: `stop()` may have been called while a write was awaited). */
  private isRunning(): boolean {
    return this.running;
  }

  /** Stops the writers after the request each is sending. */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
  }

  private async edit(member: SignedUpMember): Promise<void> {
    const log: EditorLog = { uid: member.member.user.uid, bios: [] };
    this.editors.push(log);
    for (let n = 0; this.running; n++) {
      const value = `bio ${String(n)} of ${member.member.profile.username}`;
      const result = await attempt(() =>
        this.target.graphql(UPDATE_BIO, { input: { bio: value } }, { token: member.session.accessToken }),
      );
      log.bios.push({ value, outcome: result.outcome, code: result.code });
      if (result.outcome !== 'acknowledged') await pause();
    }
  }

  private async editLinks(member: SignedUpMember): Promise<void> {
    const token = member.session.accessToken;
    const own: LinkLog[] = [];
    while (this.running) {
      // A fast machine fills the page before the kill: then the worker goes on retitling its links.
      const full = own.filter((link) => link.id).length >= MAX_LINKS;
      if (full) {
        for (const log of own) if (this.isRunning()) await this.retitle(log, token);
        continue;
      }
      const log: LinkLog = { uid: member.member.user.uid, titles: [] };
      this.links.push(log);
      own.push(log);
      const first = `link ${String(this.links.length)}`;
      const added = await attempt(() =>
        this.target.graphql<{ addLink: { id: string } }>(
          ADD_LINK,
          { input: { title: first, url: 'https://example.org/' } },
          { token },
        ),
      );
      log.titles.push({ value: first, outcome: added.outcome, code: added.code });
      const id = added.answer?.data?.addLink.id;
      if (added.outcome !== 'acknowledged' || !id) {
        await pause();
        continue;
      }
      log.id = id;
      for (let n = 1; n <= 3 && this.isRunning(); n++) await this.retitle(log, token);
    }
  }

  /** Gives a link its next title, `<first title> v<n>`. */
  private async retitle(log: LinkLog, token: string): Promise<void> {
    const id = log.id;
    if (!id) return;
    const value = `${log.titles[0]?.value ?? ''} v${String(log.titles.length)}`;
    const result = await attempt(() => this.target.graphql(UPDATE_LINK, { id, input: { title: value } }, { token }));
    log.titles.push({ value, outcome: result.outcome, code: result.code });
    if (result.outcome !== 'acknowledged') await pause();
  }

  private async signUp(): Promise<void> {
    while (this.running) {
      const email = uniqueEmail('load');
      const result = await attempt(() =>
        this.target.graphql<SignUpData>(SIGN_UP, {
          input: { email, password: GOOD_PASSWORD, first: 'Load', platform: 'web' },
        }),
      );
      this.signUps.push({ value: email, outcome: result.outcome, code: result.code });
      if (result.outcome !== 'acknowledged') await pause();
    }
  }

  private async click(): Promise<void> {
    while (this.running) {
      const ids = this.links.flatMap((link) => (link.id ? [link.id] : []));
      const id = ids[this.clicks % Math.max(ids.length, 1)];
      if (!id) {
        await pause();
        continue;
      }
      this.clicks++;
      await fetch(`${this.target.url}/l/${id}`, { redirect: 'manual', headers: { 'user-agent': BROWSER } }).then(
        (response) => response.body?.cancel(),
        () => pause(),
      );
    }
  }
}

/** A short wait after a failure, so that a server that is down is not flooded. */
function pause(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * What a writer's sequence of writes may have left in the database: the last acknowledged value, or
 * a later one left unanswered (it may have committed before the answer was lost). A refused write
 * never counts. Undefined when nothing was acknowledged (then the original value may remain).
 */
export function possibleFinalValues(attempts: Attempt[]): Set<string> | undefined {
  let last = -1;
  attempts.forEach((each, i) => {
    if (each.outcome === 'acknowledged') last = i;
  });
  if (last < 0) return undefined;
  const values = new Set([attempts[last]?.value ?? '']);
  for (const later of attempts.slice(last + 1)) if (later.outcome === 'unanswered') values.add(later.value);
  return values;
}

/**
 * Every way what the database holds (`stored`) contradicts what the load's client saw: an
 * acknowledged write missing or overwritten by a refused one, a refused write present, a member
 * signed up without their records. Empty when nothing was lost.
 */
export function contradictions(load: WriteLoad, stored: Stored): string[] {
  const found: string[] = [];
  const refused = (attempts: Attempt[]) =>
    new Set(attempts.filter((each) => each.outcome === 'refused').map((each) => each.value));
  for (const editor of load.editors) {
    const bio = stored.bios.get(editor.uid) ?? '(no profile)';
    const possible = possibleFinalValues(editor.bios);
    if (possible ? !possible.has(bio) : refused(editor.bios).has(bio)) {
      found.push(`member ${editor.uid}: bio "${bio}", expected one of ${JSON.stringify([...(possible ?? [])])}`);
    }
  }
  const titles = new Set(stored.titles.values());
  for (const link of load.links) {
    const possible = possibleFinalValues(link.titles);
    if (link.id && possible) {
      const title = stored.titles.get(link.id) ?? '(missing)';
      if (!possible.has(title))
        found.push(`link ${link.id}: "${title}", expected one of ${JSON.stringify([...possible])}`);
    }
    for (const value of refused(link.titles)) {
      if (titles.has(value)) found.push(`link title "${value}" was refused but is stored`);
    }
  }
  for (const signUp of load.signUps) {
    if (signUp.outcome === 'acknowledged' && !stored.members.has(signUp.value)) {
      found.push(`sign-up ${signUp.value} was acknowledged but is not a member with records`);
    }
  }
  for (const email of stored.orphans) found.push(`identity account ${email} has no member records`);
  if (stored.clicks > load.clicks) found.push(`${String(stored.clicks)} clicks counted, ${String(load.clicks)} sent`);
  return found;
}

/**
 * Waits until `condition` holds, checking every 100 ms, for at most `ms`; answers whether it held.
 * The bound catches what never happens, not what is slow: a busy machine may take minutes.
 */
export async function eventually(condition: () => boolean | Promise<boolean>, ms = 120_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return condition();
}

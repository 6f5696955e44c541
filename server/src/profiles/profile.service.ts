import DataLoader from 'dataloader';
import type { DataSource, Repository } from 'typeorm';
import { MAX_USERNAME_LENGTH, normalUsername } from '../rules/names.js';
import type { UserRecord } from '../members/user.entity.js';
import { normalizeChosenUsername, usernameTaken } from './username.js';
import { isUniqueViolation } from '../db/errors.js';
import { changingMemberRows } from '../db/member-rows.js';
import type { PageChanged } from './page-changes.js';
import { noPageChanges } from './page-changes.js';
import type { AuthUser } from '../graphql/context.js';
import type { Loaders } from '../graphql/context.js';
import { appError, badUserInput, ErrorCode } from '../graphql/errors.js';
import type { CalendarDay } from '../rules/dates.js';
import { latestToday } from '../rules/dates.js';
import { resolveDay } from '../verses/day.js';
import type { VerseService } from '../verses/verse.service.js';
import { Translation } from '../verses/translation.js';
import { Verse } from '../verses/verse.types.js';
import { DEFAULT_APPEARANCE, PLUS_BUTTONS, PLUS_THEMES } from './appearance.js';
import { cleanBio, cleanName } from './names.js';
import { ProfileRecord } from './profile.entity.js';
import type { UpdateProfileInput } from './profile.inputs.js';
import { toPublicProfile } from './profile.mappers.js';
import { canonicalTimeZone } from './time-zone.js';
import { isPlus, requirePlus } from '../members/plus.js';
import { canVisit } from '../rules/page-access.js';
import { requireOwnPage } from './own-page.js';
import { requireAllowedAppearance } from './profile.policies.js';
import type { PublicProfile } from './profile.types.js';
import { Appearance } from './profile.types.js';

/** `verse_day` of a profile whose verse must follow the calendar on its next read. */
const FOLLOW_ON_NEXT_READ = '0000-00-00';

/** A profile whose stored verse moves forward to `verse`, the verse of `day`. */
interface VerseMove {
  uid: string;
  verse: Verse;
  day: string;
}

function storedVerse(record: ProfileRecord): Verse {
  return Object.assign(new Verse(), {
    id: record.verseId,
    ref: record.verseRef,
    text: record.verseText,
    translation: Translation.KJV,
  });
}

/** Profile rules: what visitors see, the verse a page shows on a day, and the owner's changes. */
export class ProfileService {
  private readonly profiles: Repository<ProfileRecord>;
  /** Stored verses brought forward together: one UPDATE per day and verse for the reads of one tick. */
  private readonly verseMoves: DataLoader<VerseMove, true>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly verses: VerseService,
    private readonly pageChanged: PageChanged = noPageChanges,
  ) {
    this.profiles = dataSource.getRepository(ProfileRecord);
    this.verseMoves = new DataLoader((moves) => this.moveVerses(moves), { cache: false, maxBatchSize: 500 });
  }

  /** Writes the day's verse to each profile still behind that day and not pinned (concurrent reads write once). */
  private async moveVerses(moves: readonly VerseMove[]): Promise<true[]> {
    const groups = new Map<string, { verse: Verse; day: string; uids: string[] }>();
    for (const { uid, verse, day } of moves) {
      const key = `${day} ${verse.id}`;
      const group = groups.get(key) ?? { verse, day, uids: [] };
      group.uids.push(uid);
      groups.set(key, group);
    }
    for (const { verse, day, uids } of groups.values()) {
      await changingMemberRows(uids, () =>
        this.profiles
          .createQueryBuilder()
          .update()
          .set({ verseId: verse.id, verseRef: verse.ref, verseText: verse.text, verseDay: day })
          .where('uid IN (:...uids) AND verse_pinned = :pinned AND verse_day < :day', { uids, pinned: false, day })
          .execute(),
      );
    }
    return moves.map(() => true);
  }

  /** The public profile with this username (any letter case), or null when there is none to show. */
  async findPublic(
    username: string,
    loaders: Pick<Loaders, 'profileByUsername' | 'userByUid'>,
  ): Promise<PublicProfile | null> {
    const key = normalUsername(username);
    if (key.length === 0 || key.length > MAX_USERNAME_LENGTH) return null;
    const record = await loaders.profileByUsername.load(key);
    const owner = record ? await loaders.userByUid.load(record.uid) : null;
    return record && owner ? this.publicView(record, owner) : null;
  }

  /** The verse the page of `uid` shows on the requested day (see `verseOn`). */
  async verseFor(
    uid: string,
    loaders: Pick<Loaders, 'profileByUid' | 'userByUid'>,
    day: { date?: string | null; timeZone?: string | null; translation?: Translation | null },
  ): Promise<Verse> {
    const { record, owner } = await this.recordsOf(uid, loaders);
    return this.verseOn(record, owner, resolveDay(day), day.translation ?? record.translation);
  }

  /** The look the page of `uid` renders with (see `appearanceOf`). */
  async appearanceFor(uid: string, loaders: Pick<Loaders, 'profileByUid' | 'userByUid'>): Promise<Appearance> {
    const { record, owner } = await this.recordsOf(uid, loaders);
    return this.appearanceOf(record, owner);
  }

  private async recordsOf(
    uid: string,
    loaders: Pick<Loaders, 'profileByUid' | 'userByUid'>,
  ): Promise<{ record: ProfileRecord; owner: UserRecord }> {
    const [record, owner] = await Promise.all([loaders.profileByUid.load(uid), loaders.userByUid.load(uid)]);
    if (!record || !owner) throw appError(ErrorCode.NOT_FOUND, 'This profile no longer exists.');
    return { record, owner };
  }

  /**
   * What visitors may see of a profile: null unless the page rule (`canVisit`) allows it: active,
   * public, its owner still exists and no operator holds it (hidden, or the owner banned).
   */
  publicView(record: ProfileRecord, owner: UserRecord): PublicProfile | null {
    if (!canVisit({ profile: record, owner }).allowed) return null;
    return toPublicProfile(record, owner, this.appearanceOf(record, owner));
  }

  /** The look a page renders with: Plus-only choices fall back to the defaults without Plus. */
  appearanceOf(record: ProfileRecord, owner: Pick<UserRecord, 'stripeRole'>): Appearance {
    const plus = isPlus(owner);
    return Object.assign(new Appearance(), {
      theme: !plus && PLUS_THEMES.has(record.theme) ? DEFAULT_APPEARANCE.theme : record.theme,
      layout: record.layout,
      button: !plus && PLUS_BUTTONS.has(record.button) ? DEFAULT_APPEARANCE.button : record.button,
    });
  }

  /**
   * The verse a page shows on `day`: a pinned verse while the owner has Plus, otherwise the verse
   * of the day, the same as `verseOfTheDay` for that day. A read on a later day than the stored one
   * brings the stored verse forward (a conditional update, so concurrent reads write once); the
   * record keeps the original's default as its first value until then, and its text stays the KJV's.
   */
  async verseOn(
    record: ProfileRecord,
    owner: Pick<UserRecord, 'stripeRole'>,
    day: CalendarDay,
    translation: Translation = record.translation,
  ): Promise<Verse> {
    if (record.versePinned && isPlus(owner)) {
      return (await this.verses.byId(record.verseId, translation)) ?? storedVerse(record);
    }
    const daily = await this.verses.forDay(day, translation);
    // Only days that have begun somewhere move the stored verse: a visitor's `date` could lie ahead.
    if (!record.versePinned && day.date > record.verseDay && day.date <= latestToday()) {
      const stored = translation === Translation.KJV ? daily : await this.verses.forDay(day, Translation.KJV);
      await this.verseMoves.load({ uid: record.uid, verse: stored, day: day.date });
      Object.assign(record, { verseId: stored.id, verseRef: stored.ref, verseText: stored.text, verseDay: day.date });
    }
    return daily;
  }

  /** Applies the owner's changes; Plus-only looks need Plus. */
  async update(actor: AuthUser, input: UpdateProfileInput): Promise<ProfileRecord> {
    const timeZone = input.timeZone != null ? canonicalTimeZone(input.timeZone, 'input.timeZone') : undefined;
    return this.changeOwn(actor, (record, owner) => {
      requireAllowedAppearance(owner, input);
      // A name that met older rules stays as long as it is sent unchanged.
      if (input.name != null && input.name.trim() !== record.name) record.name = cleanName(input.name, 'input.name');
      if (input.bio != null) record.bio = cleanBio(input.bio, 'input.bio');
      if (input.theme != null) record.theme = input.theme;
      if (input.layout != null) record.layout = input.layout;
      if (input.translation != null) record.translation = input.translation;
      if (input.button != null) record.button = input.button;
      if (input.isPublic != null) record.isPublic = input.isPublic;
      if (input.isActive != null) record.isActive = input.isActive;
      if (timeZone !== undefined) record.timeZone = timeZone;
    });
  }

  /** Takes a new username, if the rules allow it and nobody has it. */
  async changeUsername(actor: AuthUser, chosen: string): Promise<ProfileRecord> {
    const username = normalizeChosenUsername(chosen);
    try {
      return await this.changeOwn(
        actor,
        (record) => {
          record.username = username;
        },
        // A new username changes which answers name the member: not a change to their rows alone.
        { usernameChanges: true },
      );
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw usernameTaken(username);
      }
      throw error;
    }
  }

  /** Marks the welcome screen as done. */
  completeWelcome(actor: AuthUser): Promise<ProfileRecord> {
    return this.changeOwn(actor, (record) => {
      record.welcome = true;
    });
  }

  /** Keeps a chosen verse on the page instead of the verse of the day (Plus). */
  async pinVerse(actor: AuthUser, ref: string): Promise<ProfileRecord> {
    const verse = await this.verses.byReference(ref);
    if (!verse) throw badUserInput(`There is no verse "${ref.trim()}" in the King James Bible.`, 'ref');
    return this.changeOwn(actor, (record, owner) => {
      requirePlus(owner, 'Pinning a verse');
      Object.assign(record, { verseId: verse.id, verseRef: verse.ref, verseText: verse.text, versePinned: true });
    });
  }

  /** Lets the page follow the verse of the day again. */
  unpinVerse(actor: AuthUser): Promise<ProfileRecord> {
    return this.changeOwn(actor, (record) => {
      Object.assign(record, { versePinned: false, verseDay: FOLLOW_ON_NEXT_READ });
    });
  }

  /** Loads the caller's profile and owner record in a transaction, applies `change`, saves. */
  private async changeOwn(
    actor: AuthUser,
    change: (record: ProfileRecord, owner: UserRecord) => void,
    { usernameChanges = false } = {},
  ): Promise<ProfileRecord> {
    const work = () =>
      this.dataSource.transaction(async (manager) => {
        const { owner, profile: record } = await requireOwnPage(manager, actor);
        change(record, owner);
        record.updatedAt = new Date();
        return manager.save(ProfileRecord, record);
      });
    // Only this member's kept public answers are dropped (app/public-answers.ts).
    const saved = await (usernameChanges ? work() : changingMemberRows([actor.id], work));
    this.pageChanged(actor.id);
    return saved;
  }
}

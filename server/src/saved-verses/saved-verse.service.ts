import type { DataSource } from 'typeorm';
import type { AuthUser } from '../graphql/context.js';
import { appError, badUserInput, ErrorCode } from '../graphql/errors.js';
import { requireLiveMember } from '../members/live-member.js';
import { UserRecord } from '../members/user.entity.js';
import { parseReference } from '../verses/reference.js';
import { SavedVerseRecord } from './saved-verse.entity.js';
import { SavedVerse } from './saved-verse.types.js';
import type { Translation } from '../verses/translation.js';
import type { VerseService } from '../verses/verse.service.js';

/** How many verses one member may keep. */
export const MAX_SAVED_VERSES = 500;

/** A member's saved verses: saving by reference, listing newest first, removing. */
export class SavedVerseService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly verses: VerseService,
  ) {}

  /** Saves the verse `ref` names ("John 3:16"); saving a saved verse again changes nothing. */
  async save(actor: AuthUser, ref: string, translation?: Translation): Promise<SavedVerse> {
    const id = await parseReference(ref);
    const verse = id === null ? null : await this.verses.byId(id, translation);
    if (!verse) throw badUserInput(`There is no verse "${ref.trim()}" in the Bible. Try one like John 3:16.`, 'ref');
    const record = await this.dataSource.transaction(async (manager) => {
      requireLiveMember(await manager.findOneBy(UserRecord, { uid: actor.id }));
      const existing = await manager.findOneBy(SavedVerseRecord, { uid: actor.id, verseId: verse.id });
      if (existing) return existing;
      if ((await manager.countBy(SavedVerseRecord, { uid: actor.id })) >= MAX_SAVED_VERSES) {
        throw appError(
          ErrorCode.LIMIT_REACHED,
          `You can keep up to ${MAX_SAVED_VERSES} verses. Remove one to save another.`,
          { limit: MAX_SAVED_VERSES },
        );
      }
      const saved = Object.assign(new SavedVerseRecord(), { uid: actor.id, verseId: verse.id, savedAt: new Date() });
      await manager.createQueryBuilder().insert().into(SavedVerseRecord).values(saved).orIgnore().execute();
      return saved;
    });
    return Object.assign(new SavedVerse(), { verse, savedAt: record.savedAt });
  }

  /** Removes a saved verse by its id (`John.3.16`); false when it was not saved. */
  async unsave(actor: AuthUser, verseId: string): Promise<boolean> {
    const removed = await this.dataSource.getRepository(SavedVerseRecord).delete({ uid: actor.id, verseId });
    return (removed.affected ?? 0) > 0;
  }

  /** The member's saved verses, newest first, in `translation`. */
  async list(actor: AuthUser, translation?: Translation): Promise<SavedVerse[]> {
    const records = await this.dataSource.getRepository(SavedVerseRecord).find({
      where: { uid: actor.id },
      order: { savedAt: 'DESC', verseId: 'ASC' },
    });
    const verses = await this.verses.byIds(
      records.map((record) => record.verseId),
      translation,
    );
    return records.flatMap((record, index) => {
      const verse = verses[index];
      return verse ? [Object.assign(new SavedVerse(), { verse, savedAt: record.savedAt })] : [];
    });
  }
}

import { Arg, Authorized, ID, Mutation, Query, Resolver } from 'type-graphql';
import { CurrentUser } from '../graphql/auth.js';
import type { AuthUser } from '../graphql/context.js';
import type { SavedVerseService } from './saved-verse.service.js';
import { SavedVerse } from './saved-verse.types.js';
import { Translation } from '../verses/translation.js';

const translationArg = {
  nullable: true,
  description: 'The translation to read the verses in; KJV when left out.',
} as const;

@Resolver(() => SavedVerse)
export class SavedVerseResolver {
  constructor(private readonly saved: SavedVerseService) {}

  @Authorized()
  @Query(() => [SavedVerse], { description: 'The verses you saved, newest first.' })
  savedVerses(
    @CurrentUser() actor: AuthUser,
    @Arg('translation', () => Translation, translationArg) translation: Translation | null | undefined,
  ): Promise<SavedVerse[]> {
    return this.saved.list(actor, translation ?? undefined);
  }

  @Authorized()
  @Mutation(() => SavedVerse, {
    description: 'Saves the verse a reference names ("John 3:16"); saving it again changes nothing.',
  })
  saveVerse(
    @Arg('ref', () => String, { description: 'A written reference to one verse.' }) ref: string,
    @CurrentUser() actor: AuthUser,
    @Arg('translation', () => Translation, translationArg) translation: Translation | null | undefined,
  ): Promise<SavedVerse> {
    return this.saved.save(actor, ref, translation ?? undefined);
  }

  @Authorized()
  @Mutation(() => Boolean, { description: 'Removes a saved verse; false when it was not saved.' })
  unsaveVerse(
    @Arg('verseId', () => ID, { description: 'The verse id, e.g. `John.3.16`.' }) verseId: string,
    @CurrentUser() actor: AuthUser,
  ): Promise<boolean> {
    return this.saved.unsave(actor, verseId);
  }
}

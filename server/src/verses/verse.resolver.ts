import { Arg, Query, Resolver } from 'type-graphql';
import { Public } from '../graphql/auth.js';
import { Translation } from './translation.js';
import type { VerseService } from './verse.service.js';
import { Verse } from './verse.types.js';

@Resolver()
export class VerseResolver {
  constructor(private readonly verses: VerseService) {}

  @Public()
  @Query(() => Verse, {
    description:
      'The verse of the day: for `date` when given, otherwise for today in `timeZone`, otherwise for today in UTC. ' +
      'The same date always gives the same verse.',
  })
  verseOfTheDay(
    @Arg('date', () => String, { nullable: true, description: 'An ISO date, `YYYY-MM-DD`.' })
    date: string | null | undefined,
    @Arg('timeZone', () => String, {
      nullable: true,
      description: "An IANA time zone such as `America/Chicago`; today's date there is used.",
    })
    timeZone: string | null | undefined,
    @Arg('translation', () => Translation, {
      nullable: true,
      description: 'The translation to read it in; KJV when left out.',
    })
    translation: Translation | null | undefined,
  ): Promise<Verse> {
    return this.verses.ofTheDay({ date, timeZone, translation });
  }

  @Public()
  @Query(() => Verse, {
    nullable: true,
    description:
      'The verse a reference names ("John 3:16", "Jn 3:16", "1 Cor 13:4"); null when there is no such verse.',
  })
  verse(
    @Arg('ref', () => String, { description: 'A written reference to one verse.' }) ref: string,
    @Arg('translation', () => Translation, {
      nullable: true,
      description: 'The translation to read it in; KJV when left out.',
    })
    translation: Translation | null | undefined,
  ): Promise<Verse | null> {
    return this.verses.byReference(ref, translation ?? undefined);
  }
}

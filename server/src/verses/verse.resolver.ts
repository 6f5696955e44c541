import { Arg, Query, Resolver, Root } from 'type-graphql';
import { Public } from '../graphql/auth.js';
import { LiveSubscription } from '../graphql/subscriptions.js';
import type { DayTurns } from './day-turns.js';
import { todayIn } from './day.js';
import { Translation } from './translation.js';
import type { VerseService } from './verse.service.js';
import { Verse } from './verse.types.js';

declare module '../kernel/live.js' {
  interface LiveTopics {
    /** The day turned in the time zone that is the key: the new date (each instance's own clock, see DayTurns). */
    verseOfTheDayChanged: { date: string };
  }
}

@Resolver()
export class VerseResolver {
  constructor(
    private readonly verses: VerseService,
    private readonly days: DayTurns,
  ) {}

  @Public()
  @LiveSubscription<'verseOfTheDayChanged', VerseResolver, { timeZone: string }>(() => Verse, {
    description: 'The verse of the day, sent when the day turns at midnight in `timeZone`.',
    topic: 'verseOfTheDayChanged',
    // Checked at once: an unknown zone is refused (BAD_USER_INPUT) before anything is heard.
    key: ({ args }) => {
      todayIn(args.timeZone);
      return args.timeZone;
    },
    events: (timeZone, signal, resolver) => resolver.dayTurns(timeZone, signal),
  })
  verseOfTheDayChanged(
    @Arg('timeZone', () => String, { description: 'An IANA time zone such as `America/Chicago`.' })
    _timeZone: string,
    @Arg('translation', () => Translation, {
      nullable: true,
      description: 'The translation to read it in; KJV when left out.',
    })
    translation: Translation | null | undefined,
    @Root() turn: { date: string },
  ): Promise<Verse> {
    return this.verses.ofTheDay({ date: turn.date, translation });
  }

  /** The new date each time the day turns in `timeZone`. */
  async *dayTurns(timeZone: string, signal: AbortSignal): AsyncGenerator<{ date: string }> {
    for await (const date of this.days.turns(timeZone, signal)) yield { date };
  }

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

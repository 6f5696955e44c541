import { resolver } from '../kernel/feature-module.js';
import type { FeatureModule } from '../kernel/feature-module.js';
import { DayTurns } from './day-turns.js';
import { registerVersePages } from './verse-pages.js';
import { VerseRecord } from './verse.entity.js';
import { VerseResolver } from './verse.resolver.js';
import { VerseService } from './verse.service.js';

declare module '../kernel/feature-module.js' {
  interface Services {
    verses: VerseService;
    /** The turning of the day in the time zones `verseOfTheDayChanged` subscribers listen to. */
    dayTurns: DayTurns;
  }
}

/** The stored translations, the verse of the day, and its pages. */
export const versesModule: FeatureModule = {
  name: 'verses',
  entities: [VerseRecord],
  build: ({ dataSource, onClose }) => {
    const dayTurns = new DayTurns();
    onClose(() => {
      dayTurns.close();
    });
    return { verses: new VerseService(dataSource.getRepository(VerseRecord)), dayTurns };
  },
  resolvers: [resolver(VerseResolver, ({ verses, dayTurns }) => new VerseResolver(verses, dayTurns))],
  routes: (server, { verses }, { config }) => {
    registerVersePages(server, { verses, publicUrl: config.publicUrl });
  },
};

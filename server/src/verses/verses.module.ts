import { resolver } from '../kernel/feature-module.js';
import type { FeatureModule } from '../kernel/feature-module.js';
import { registerVersePages } from './verse-pages.js';
import { VerseRecord } from './verse.entity.js';
import { VerseResolver } from './verse.resolver.js';
import { VerseService } from './verse.service.js';

declare module '../kernel/feature-module.js' {
  interface Services {
    verses: VerseService;
  }
}

/** The stored translations, the verse of the day, and its pages. */
export const versesModule: FeatureModule = {
  name: 'verses',
  entities: [VerseRecord],
  build: ({ dataSource }) => ({ verses: new VerseService(dataSource.getRepository(VerseRecord)) }),
  resolvers: [resolver(VerseResolver, ({ verses }) => new VerseResolver(verses))],
  routes: (server, { verses }, { config }) => {
    registerVersePages(server, { verses, publicUrl: config.publicUrl });
  },
};

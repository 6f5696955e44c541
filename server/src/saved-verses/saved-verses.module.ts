import { resolver } from '../kernel/feature-module.js';
import type { FeatureModule } from '../kernel/feature-module.js';
import { SavedVerseRecord } from './saved-verse.entity.js';
import { SavedVerseResolver } from './saved-verse.resolver.js';
import { SavedVerseService } from './saved-verse.service.js';

/** The verses a member keeps. */
export const savedVersesModule: FeatureModule = {
  name: 'saved-verses',
  entities: [SavedVerseRecord],
  resolvers: [
    resolver(
      SavedVerseResolver,
      ({ verses }, { dataSource }) => new SavedVerseResolver(new SavedVerseService(dataSource, verses)),
    ),
  ],
};

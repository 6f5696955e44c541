import type { FeatureModule } from '../kernel/feature-module.js';
import { prayerEntities } from './prayer.entities.js';

/** Prayer requests: visitors ask a member for prayer; the member reads, prays, replies. */
export const prayerModule: FeatureModule = {
  name: 'prayer',
  entities: prayerEntities,
};

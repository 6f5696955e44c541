import { accountsModule } from '../accounts/accounts.module.js';
import { billingModule } from '../billing/billing.module.js';
import { embedsModule } from '../embeds/embeds.module.js';
import { exportsModule } from '../exports/exports.module.js';
import { identityModule } from '../identity/identity.module.js';
import type { FeatureModule } from '../kernel/feature-module.js';
import { linksModule } from '../links/links.module.js';
import { membersModule } from '../members/members.module.js';
import { moderationModule } from '../moderation/moderation.module.js';
import { operatorModule } from '../operator/operator.module.js';
import { photosModule } from '../photos/photos.module.js';
import { prayerModule } from '../prayer/prayer.module.js';
import { profilesModule } from '../profiles/profiles.module.js';
import { savedVersesModule } from '../saved-verses/saved-verses.module.js';
import { sharingModule } from '../sharing/sharing.module.js';
import { verseMailModule } from '../verse-mail/verse-mail.module.js';
import { versesModule } from '../verses/verses.module.js';

/**
 * Every server feature, each built after the features it uses: its tables, services, resolvers,
 * loaders, routes and jobs come from here alone, so adding a feature is one line.
 */
export const modules: readonly FeatureModule[] = [
  membersModule,
  versesModule,
  identityModule,
  profilesModule,
  linksModule,
  photosModule,
  sharingModule,
  billingModule,
  accountsModule,
  savedVersesModule,
  verseMailModule,
  moderationModule,
  prayerModule,
  embedsModule,
  exportsModule,
  operatorModule,
];

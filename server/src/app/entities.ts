import { UserRecord } from '../members/user.entity.js';
import { billingEntities } from '../billing/billing.entities.js';
import { identityEntities } from '../identity/embedded/entities.js';
import { JobLeaseRecord } from '../jobs/job-lease.entity.js';
import { linkEntities } from '../links/link.entity.js';
import { MailOutboxRecord } from '../mail/outbox.entity.js';
import { photoEntities } from '../photos/photo.entity.js';
import { moderationEntities } from '../moderation/moderation.entities.js';
import { ProfileRecord } from '../profiles/profile.entity.js';
import { SavedVerseRecord } from '../saved-verses/saved-verse.entity.js';
import { VerseMailSendRecord, VerseMailSubscriptionRecord } from '../verse-mail/verse-mail.entity.js';
import { VerseRecord } from '../verses/verse.entity.js';

/** Every TypeORM entity; migrations in db/migrations/<dialect>/ must produce exactly these tables. */
export const entities = [
  VerseRecord,
  ...identityEntities,
  MailOutboxRecord,
  UserRecord,
  ProfileRecord,
  ...linkEntities,
  ...photoEntities,
  ...billingEntities,
  JobLeaseRecord,
  SavedVerseRecord,
  VerseMailSubscriptionRecord,
  VerseMailSendRecord,
  ...moderationEntities,
];

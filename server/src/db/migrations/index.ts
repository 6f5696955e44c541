// Written by generate-migration.ts: every migration, per dialect, in the order they run.
import { CreateVerses1795240666413 as sqliteCreateVerses1795240666413 } from './sqlite/1795240666413-CreateVerses.js';
import { SeedVerses1795240666414 as sqliteSeedVerses1795240666414 } from './sqlite/1795240666414-SeedVerses.js';
import { CreateIdentity1795242437394 as sqliteCreateIdentity1795242437394 } from './sqlite/1795242437394-CreateIdentity.js';
import { CreateMembers1795243238732 as sqliteCreateMembers1795243238732 } from './sqlite/1795243238732-CreateMembers.js';
import { CreateBilling1795244157193 as sqliteCreateBilling1795244157193 } from './sqlite/1795244157193-CreateBilling.js';
import { JobLeases1795532552882 as sqliteJobLeases1795532552882 } from './sqlite/1795532552882-JobLeases.js';
import { LinksAndBio1795547667505 as sqliteLinksAndBio1795547667505 } from './sqlite/1795547667505-LinksAndBio.js';
import { OtpAttempts1795571212038 as sqliteOtpAttempts1795571212038 } from './sqlite/1795571212038-OtpAttempts.js';
import { VersesTranslationsSavedMail1795576795471 as sqliteVersesTranslationsSavedMail1795576795471 } from './sqlite/1795576795471-VersesTranslationsSavedMail.js';
import { SeedWebVerses1795576795472 as sqliteSeedWebVerses1795576795472 } from './sqlite/1795576795472-SeedWebVerses.js';
import { ProfilePhotos1795576877602 as sqliteProfilePhotos1795576877602 } from './sqlite/1795576877602-ProfilePhotos.js';
import { MfaFactors1795576891882 as sqliteMfaFactors1795576891882 } from './sqlite/1795576891882-MfaFactors.js';
import { LinkScheduleAndHighlight1795576920267 as sqliteLinkScheduleAndHighlight1795576920267 } from './sqlite/1795576920267-LinkScheduleAndHighlight.js';
import { ModerationAndAudit1795576927108 as sqliteModerationAndAudit1795576927108 } from './sqlite/1795576927108-ModerationAndAudit.js';
import { FlowStates1795576981811 as sqliteFlowStates1795576981811 } from './sqlite/1795576981811-FlowStates.js';
import { Passkeys1795790021937 as sqlitePasskeys1795790021937 } from './sqlite/1795790021937-Passkeys.js';
import { AuditOrigin1795791207642 as sqliteAuditOrigin1795791207642 } from './sqlite/1795791207642-AuditOrigin.js';
import { RecoveryCodes1795795645906 as sqliteRecoveryCodes1795795645906 } from './sqlite/1795795645906-RecoveryCodes.js';
import { PrayerRequests1795826678864 as sqlitePrayerRequests1795826678864 } from './sqlite/1795826678864-PrayerRequests.js';
import { CreateVerses1795240666413 as postgresCreateVerses1795240666413 } from './postgres/1795240666413-CreateVerses.js';
import { SeedVerses1795240666414 as postgresSeedVerses1795240666414 } from './postgres/1795240666414-SeedVerses.js';
import { CreateIdentity1795242437394 as postgresCreateIdentity1795242437394 } from './postgres/1795242437394-CreateIdentity.js';
import { CreateMembers1795243238732 as postgresCreateMembers1795243238732 } from './postgres/1795243238732-CreateMembers.js';
import { CreateBilling1795244157193 as postgresCreateBilling1795244157193 } from './postgres/1795244157193-CreateBilling.js';
import { JobLeases1795532552882 as postgresJobLeases1795532552882 } from './postgres/1795532552882-JobLeases.js';
import { LinksAndBio1795547667505 as postgresLinksAndBio1795547667505 } from './postgres/1795547667505-LinksAndBio.js';
import { OtpAttempts1795571212038 as postgresOtpAttempts1795571212038 } from './postgres/1795571212038-OtpAttempts.js';
import { VersesTranslationsSavedMail1795576795471 as postgresVersesTranslationsSavedMail1795576795471 } from './postgres/1795576795471-VersesTranslationsSavedMail.js';
import { SeedWebVerses1795576795472 as postgresSeedWebVerses1795576795472 } from './postgres/1795576795472-SeedWebVerses.js';
import { ProfilePhotos1795576877602 as postgresProfilePhotos1795576877602 } from './postgres/1795576877602-ProfilePhotos.js';
import { MfaFactors1795576891882 as postgresMfaFactors1795576891882 } from './postgres/1795576891882-MfaFactors.js';
import { LinkScheduleAndHighlight1795576920267 as postgresLinkScheduleAndHighlight1795576920267 } from './postgres/1795576920267-LinkScheduleAndHighlight.js';
import { ModerationAndAudit1795576927108 as postgresModerationAndAudit1795576927108 } from './postgres/1795576927108-ModerationAndAudit.js';
import { FlowStates1795576981811 as postgresFlowStates1795576981811 } from './postgres/1795576981811-FlowStates.js';
import { Passkeys1795790021937 as postgresPasskeys1795790021937 } from './postgres/1795790021937-Passkeys.js';
import { AuditOrigin1795791207642 as postgresAuditOrigin1795791207642 } from './postgres/1795791207642-AuditOrigin.js';
import { RecoveryCodes1795795645906 as postgresRecoveryCodes1795795645906 } from './postgres/1795795645906-RecoveryCodes.js';
import { PrayerRequests1795826678864 as postgresPrayerRequests1795826678864 } from './postgres/1795826678864-PrayerRequests.js';

export const sqliteMigrations = [
  sqliteCreateVerses1795240666413,
  sqliteSeedVerses1795240666414,
  sqliteCreateIdentity1795242437394,
  sqliteCreateMembers1795243238732,
  sqliteCreateBilling1795244157193,
  sqliteJobLeases1795532552882,
  sqliteLinksAndBio1795547667505,
  sqliteOtpAttempts1795571212038,
  sqliteVersesTranslationsSavedMail1795576795471,
  sqliteSeedWebVerses1795576795472,
  sqliteProfilePhotos1795576877602,
  sqliteMfaFactors1795576891882,
  sqliteLinkScheduleAndHighlight1795576920267,
  sqliteModerationAndAudit1795576927108,
  sqliteFlowStates1795576981811,
  sqlitePasskeys1795790021937,
  sqliteAuditOrigin1795791207642,
  sqliteRecoveryCodes1795795645906,
  sqlitePrayerRequests1795826678864,
];
export const postgresMigrations = [
  postgresCreateVerses1795240666413,
  postgresSeedVerses1795240666414,
  postgresCreateIdentity1795242437394,
  postgresCreateMembers1795243238732,
  postgresCreateBilling1795244157193,
  postgresJobLeases1795532552882,
  postgresLinksAndBio1795547667505,
  postgresOtpAttempts1795571212038,
  postgresVersesTranslationsSavedMail1795576795471,
  postgresSeedWebVerses1795576795472,
  postgresProfilePhotos1795576877602,
  postgresMfaFactors1795576891882,
  postgresLinkScheduleAndHighlight1795576920267,
  postgresModerationAndAudit1795576927108,
  postgresFlowStates1795576981811,
  postgresPasskeys1795790021937,
  postgresAuditOrigin1795791207642,
  postgresRecoveryCodes1795795645906,
  postgresPrayerRequests1795826678864,
];

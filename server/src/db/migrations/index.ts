// Written by generate-migration.ts: every migration, per dialect, in the order they run.
import { CreateVerses1795240666413 as sqliteCreateVerses1795240666413 } from './sqlite/1795240666413-CreateVerses.js';
import { SeedVerses1795240666414 as sqliteSeedVerses1795240666414 } from './sqlite/1795240666414-SeedVerses.js';
import { CreateIdentity1795242437394 as sqliteCreateIdentity1795242437394 } from './sqlite/1795242437394-CreateIdentity.js';
import { CreateMembers1795243238732 as sqliteCreateMembers1795243238732 } from './sqlite/1795243238732-CreateMembers.js';
import { CreateBilling1795244157193 as sqliteCreateBilling1795244157193 } from './sqlite/1795244157193-CreateBilling.js';
import { JobLeases1795532552882 as sqliteJobLeases1795532552882 } from './sqlite/1795532552882-JobLeases.js';
import { LinksAndBio1795547667505 as sqliteLinksAndBio1795547667505 } from './sqlite/1795547667505-LinksAndBio.js';
import { OtpAttempts1795571212038 as sqliteOtpAttempts1795571212038 } from './sqlite/1795571212038-OtpAttempts.js';
import { CreateVerses1795240666413 as postgresCreateVerses1795240666413 } from './postgres/1795240666413-CreateVerses.js';
import { SeedVerses1795240666414 as postgresSeedVerses1795240666414 } from './postgres/1795240666414-SeedVerses.js';
import { CreateIdentity1795242437394 as postgresCreateIdentity1795242437394 } from './postgres/1795242437394-CreateIdentity.js';
import { CreateMembers1795243238732 as postgresCreateMembers1795243238732 } from './postgres/1795243238732-CreateMembers.js';
import { CreateBilling1795244157193 as postgresCreateBilling1795244157193 } from './postgres/1795244157193-CreateBilling.js';
import { JobLeases1795532552882 as postgresJobLeases1795532552882 } from './postgres/1795532552882-JobLeases.js';
import { LinksAndBio1795547667505 as postgresLinksAndBio1795547667505 } from './postgres/1795547667505-LinksAndBio.js';
import { OtpAttempts1795571212038 as postgresOtpAttempts1795571212038 } from './postgres/1795571212038-OtpAttempts.js';

export const sqliteMigrations = [
  sqliteCreateVerses1795240666413,
  sqliteSeedVerses1795240666414,
  sqliteCreateIdentity1795242437394,
  sqliteCreateMembers1795243238732,
  sqliteCreateBilling1795244157193,
  sqliteJobLeases1795532552882,
  sqliteLinksAndBio1795547667505,
  sqliteOtpAttempts1795571212038,
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
];

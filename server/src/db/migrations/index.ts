// Written by generate-migration.ts: every migration, per dialect, in the order they run.
import { CreateVerses1795240666413 as sqliteCreateVerses1795240666413 } from './sqlite/1795240666413-CreateVerses.js';
import { SeedVerses1795240666414 as sqliteSeedVerses1795240666414 } from './sqlite/1795240666414-SeedVerses.js';
import { CreateMembers1795242216163 as sqliteCreateMembers1795242216163 } from './sqlite/1795242216163-CreateMembers.js';
import { CreateVerses1795240666413 as postgresCreateVerses1795240666413 } from './postgres/1795240666413-CreateVerses.js';
import { SeedVerses1795240666414 as postgresSeedVerses1795240666414 } from './postgres/1795240666414-SeedVerses.js';
import { CreateMembers1795242216163 as postgresCreateMembers1795242216163 } from './postgres/1795242216163-CreateMembers.js';

export const sqliteMigrations = [
  sqliteCreateVerses1795240666413,
  sqliteSeedVerses1795240666414,
  sqliteCreateMembers1795242216163,
];
export const postgresMigrations = [
  postgresCreateVerses1795240666413,
  postgresSeedVerses1795240666414,
  postgresCreateMembers1795242216163,
];

import type { DataSource, Logger } from 'typeorm';
import type { Config } from '../config.js';
import { buildDataSource } from '../db/data-source.js';
import { entities } from './entities.js';

/** The app's data source for the configured database, with every entity (not yet initialized). */
export function createDataSource(database: Config['database'], extra: { logger?: Logger } = {}): DataSource {
  return buildDataSource(database, { entities, ...extra });
}

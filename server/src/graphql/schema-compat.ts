import { CriticalityLevel, diff } from '@graphql-inspector/core';
import type { Change } from '@graphql-inspector/core';
import { buildSchema } from 'graphql';

/** A change between the published schema and this one, as graphql-inspector judges it. */
export interface SchemaChange {
  /** Where it is: `Type.field`, `Type.field.argument`, or a type's name. */
  path: string;
  /** graphql-inspector's change type (`FIELD_REMOVED`, `FIELD_TYPE_CHANGED`, …). */
  type: string;
  message: string;
  level: 'breaking' | 'dangerous' | 'safe';
}

/** What a comparison found: breaking changes not marked as intended fail the check. */
export interface CompatReport {
  unmarked: SchemaChange[];
  marked: SchemaChange[];
  dangerous: SchemaChange[];
}

function levelOf(change: Change): SchemaChange['level'] {
  switch (change.criticality.level) {
    case CriticalityLevel.Breaking:
      return 'breaking';
    case CriticalityLevel.Dangerous:
      return 'dangerous';
    default:
      return 'safe';
  }
}

/**
 * The paths marked as intended breaks in the changes file (docs/schema/changes.md): every
 * `` `Type.field` `` in backticks at the start of a list item, with the reason after it.
 */
export function markedPaths(changesFile: string): Set<string> {
  const marked = new Set<string>();
  for (const line of changesFile.split('\n')) {
    const path = /^\s*[-*]\s+`([A-Za-z_][\w.]*)`/.exec(line)?.[1];
    if (path !== undefined) marked.add(path);
  }
  return marked;
}

/** Every change from `publishedSdl` to `currentSdl`. */
export async function schemaChanges(publishedSdl: string, currentSdl: string): Promise<SchemaChange[]> {
  const changes = await diff(buildSchema(publishedSdl), buildSchema(currentSdl));
  return changes.map((change) => ({
    path: change.path ?? '',
    type: change.type as string,
    message: change.message,
    level: levelOf(change),
  }));
}

/**
 * Compares the schema with the published one: breaking changes whose path (or a parent of it:
 * marking `Profile` covers `Profile.name`) is marked in `changesFile` are intended; the rest fail.
 */
export async function checkSchemaCompat(
  publishedSdl: string,
  currentSdl: string,
  changesFile: string,
): Promise<CompatReport> {
  const marks = markedPaths(changesFile);
  const isMarked = (path: string) =>
    path.split('.').some((_part, index, parts) => marks.has(parts.slice(0, index + 1).join('.')));
  const changes = await schemaChanges(publishedSdl, currentSdl);
  const breaking = changes.filter((change) => change.level === 'breaking');
  return {
    unmarked: breaking.filter((change) => !isMarked(change.path)),
    marked: breaking.filter((change) => isMarked(change.path)),
    dangerous: changes.filter((change) => change.level === 'dangerous'),
  };
}

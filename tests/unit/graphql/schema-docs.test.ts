import { isEnumType, isInputObjectType, isObjectType, isScalarType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildAppSchema } from '../../../server/src/app/schema.js';

describe('the published schema', () => {
  it('describes every type, field, argument and enum value', async () => {
    const schema = await buildAppSchema();
    const missing: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (
        type.name.startsWith('__') ||
        (isScalarType(type) && ['String', 'Boolean', 'Int', 'Float', 'ID'].includes(type.name))
      ) {
        continue;
      }
      // The root types are entry points; their fields carry the documentation.
      if (
        !type.description &&
        type !== schema.getQueryType() &&
        type !== schema.getMutationType() &&
        type !== schema.getSubscriptionType()
      ) {
        missing.push(type.name);
      }
      if (isObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (!field.description) missing.push(`${type.name}.${field.name}`);
          for (const arg of field.args) {
            if (!arg.description) missing.push(`${type.name}.${field.name}(${arg.name})`);
          }
        }
      }
      if (isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (!field.description) missing.push(`${type.name}.${field.name}`);
        }
      }
      if (isEnumType(type)) {
        for (const value of type.getValues()) if (!value.description) missing.push(`${type.name}.${value.name}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

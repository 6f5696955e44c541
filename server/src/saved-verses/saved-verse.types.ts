import { Field, ObjectType } from 'type-graphql';
import { Verse } from '../verses/verse.types.js';

@ObjectType({ description: 'A verse you saved (only you see your saved verses).' })
export class SavedVerse {
  @Field(() => Verse, { description: 'The verse, in the translation asked for.' })
  verse!: Verse;

  @Field(() => Date, { description: 'When you saved it.' })
  savedAt!: Date;
}

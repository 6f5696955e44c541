import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType({ description: 'One Bible verse.' })
export class Verse {
  @Field(() => ID, { description: 'The OSIS reference, e.g. `Heb.3.4`.' })
  id!: string;

  @Field(() => String, { description: 'The display reference, e.g. `Hebrews 3:4`.' })
  ref!: string;

  @Field(() => String, {
    description: 'The verse text, without italics brackets or paragraph marks.',
  })
  text!: string;

  @Field(() => String, { description: 'The translation the text comes from, e.g. `KJV` (King James, 1769).' })
  translation!: string;
}

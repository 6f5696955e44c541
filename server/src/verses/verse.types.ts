import { Field, ID, ObjectType } from 'type-graphql';
import { Translation } from './translation.js';

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

  @Field(() => Translation, {
    description:
      'The translation the text comes from. A verse the WEB leaves out as a later addition (Acts 8:37) comes from the KJV.',
  })
  translation!: Translation;
}

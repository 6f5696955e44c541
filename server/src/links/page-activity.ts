import { Authorized, Field, ID, ObjectType, Resolver, Root, registerEnumType } from 'type-graphql';
import { unauthenticated } from '../graphql/errors.js';
import { LiveSubscription } from '../graphql/subscriptions.js';

export enum PageActivityKind {
  view = 'view',
  click = 'click',
}

registerEnumType(PageActivityKind, {
  name: 'PageActivityKind',
  description: 'What a visitor did on a page.',
  valuesConfig: {
    view: { description: 'The page was viewed (counted once a day per visitor).' },
    click: { description: 'A link was clicked (counted once a day per visitor and link).' },
  },
});

/** What the stats subscriber hears: a count as it happens; payloads cross Redis as JSON, so `at` is ISO text. */
export interface PageActivityEvent {
  kind: 'view' | 'click';
  linkId: string | null;
  at: string;
}

declare module '../kernel/live.js' {
  interface LiveTopics {
    /** A view or a click counted on the page of the member whose uid is the key. */
    pageActivity: PageActivityEvent;
  }
}

@ObjectType({ description: "A view or a click counted on the signed-in member's page." })
export class PageActivity {
  @Field(() => PageActivityKind, { description: 'A view of the page, or a click on one of its links.' })
  kind!: PageActivityKind;

  @Field(() => ID, { nullable: true, description: 'The link clicked; null for a view.' })
  linkId!: string | null;

  @Field(() => Date, { description: 'When it was counted.' })
  at!: Date;
}

@Resolver()
export class PageActivityResolver {
  @Authorized()
  @LiveSubscription(() => PageActivity, {
    description: "The signed-in member's own page being viewed or a link clicked, as it is counted.",
    topic: 'pageActivity',
    key: ({ context }) => {
      if (!context.user) throw unauthenticated();
      return context.user.id;
    },
  })
  pageActivity(@Root() event: PageActivityEvent): PageActivity {
    return Object.assign(new PageActivity(), {
      kind: event.kind === 'click' ? PageActivityKind.click : PageActivityKind.view,
      linkId: event.linkId,
      at: new Date(event.at),
    });
  }
}

import type { GraphQLSchema } from 'graphql';
import type { ContainerType, PubSub, SubscribeResolverData } from 'type-graphql';
import { Subscription } from 'type-graphql';
import type { Live, LiveTopic, LiveTopics } from '../kernel/live.js';
import type { Context, Loaders } from './context.js';

/** What a schema's subscriptions run on: its instance's live events, fresh loaders, and the resolver instances. */
export interface SubscriptionBinding {
  live: Live;
  loaders: () => Loaders;
  container: ContainerType;
}

// Keyed by the schema: type-graphql's `subscribe` functions are declared on the class, once, while
// every app (two in a scale-out test) builds its own schema on its own services.
const bindings = new WeakMap<GraphQLSchema, SubscriptionBinding>();

/** Joins a built schema to the live events and resolver instances its subscriptions use. */
export function bindSubscriptions(schema: GraphQLSchema, binding: SubscriptionBinding): void {
  bindings.set(schema, binding);
}

/**
 * type-graphql wants a pub/sub to build a schema with subscriptions, but every field here says how
 * it subscribes (`LiveSubscription`, on `kernel.live`): this one is never used.
 */
export const unusedPubSub: PubSub = {
  publish() {
    throw new Error('publish through kernel.live');
  },
  subscribe() {
    throw new Error('subscriptions are made with LiveSubscription');
  },
};

/** type-graphql's return type thunk (`() => Member`), which it does not export. */
type ReturnTypeFunc = Parameters<typeof Subscription>[0] extends infer P
  ? Exclude<P, { subscribe: unknown } | { topics: unknown }>
  : never;

export type SubscribeData<Args = Record<string, unknown>> = SubscribeResolverData<unknown, Args, Context>;

/** A subscription field: which topic, whose events, and when it ends. */
export interface LiveSubscriptionOptions<T extends LiveTopic, R, Args> {
  description: string;
  topic: T;
  /**
   * Whose events the subscriber hears (the `key` they are published under): a member's uid, a
   * username, a time zone. Throws to refuse the subscription (checked before anything is heard).
   */
  key(data: SubscribeData<Args>, resolver: R): string | Promise<string>;
  /**
   * Whether the subscription ends, quietly, instead of sending this event (a page hidden). Asked
   * with the loaders the event will be resolved with.
   */
  endsAt?(payload: LiveTopics[T], data: SubscribeData<Args>, resolver: R): boolean | Promise<boolean>;
  /**
   * Where the events come from when not from `kernel.live` (`topic` then only names their type): a
   * source of this instance's own, such as the turning of the day in a time zone.
   */
  events?(key: string, signal: AbortSignal, resolver: R): AsyncIterable<LiveTopics[T]>;
}

/**
 * `@Subscription` on `kernel.live`: the decorated method is the resolver of each event (its
 * `@Root()` is the payload published under `topic` and the subscriber's `key`). Each event is
 * resolved with fresh loaders: a subscription lasts hours, and loaders keep what they read. Mark
 * the method `@Public()` or `@Authorized()` as any root field; adding a field is adding the method
 * to a resolver of the feature's module.
 */
export function LiveSubscription<T extends LiveTopic, R = unknown, Args = Record<string, unknown>>(
  returnType: ReturnTypeFunc,
  options: LiveSubscriptionOptions<T, R, Args>,
): MethodDecorator {
  return (prototype, methodName, descriptor) => {
    const owner = prototype.constructor;
    Subscription(returnType, {
      description: options.description,
      subscribe: (data: SubscribeData<Args>) => liveEvents(data, owner, options),
    })(prototype, methodName, descriptor);
  };
}

async function liveEvents<T extends LiveTopic, R, Args>(
  data: SubscribeData<Args>,
  owner: unknown,
  options: LiveSubscriptionOptions<T, R, Args>,
): Promise<AsyncIterableIterator<LiveTopics[T]>> {
  const binding = bindings.get(data.info.schema);
  if (!binding) throw new Error('This schema was not bound to live events (bindSubscriptions)');
  const resolverData = {
    root: data.source,
    args: data.args as Record<string, unknown>,
    context: data.context,
    info: data.info,
  };
  const resolver = (await binding.container.get(owner, resolverData)) as R;
  const key = await options.key(data, resolver);
  const stop = new AbortController();
  const source = options.events
    ? options.events(key, stop.signal, resolver)
    : binding.live.subscribe(options.topic, key, stop.signal);
  const events = source[Symbol.asyncIterator]();
  const done = { done: true, value: undefined } as const;
  // `return` aborts the wait at once: an async generator would answer it only after its next event.
  const stream: AsyncIterableIterator<LiveTopics[T]> = {
    async next() {
      const event = await events.next();
      if (event.done) return done;
      data.context.loaders = binding.loaders();
      if (await options.endsAt?.(event.value, data, resolver)) {
        stop.abort();
        return done;
      }
      return event;
    },
    return() {
      stop.abort();
      return Promise.resolve(done);
    },
    throw(error: unknown) {
      stop.abort();
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    },
    [Symbol.asyncIterator]() {
      return stream;
    },
  };
  return stream;
}

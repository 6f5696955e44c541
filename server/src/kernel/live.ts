import { EventEmitter, on } from 'node:events';

/**
 * What the server pushes to subscribers, by topic: each feature adds its own topics by module
 * augmentation (`declare module '../kernel/live.js' { interface LiveTopics { … } }`), naming the
 * payload a subscriber receives, so this kernel names no feature.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the features' augmentations
export interface LiveTopics {}

export type LiveTopic = Extract<keyof LiveTopics, string>;

/**
 * Events pushed to subscribers. `key` says whose event it is: a member's uid for private topics,
 * a username or a time zone for public ones, '' for everyone. Publishing never fails the write
 * that caused it: an event no one hears is simply gone.
 */
export interface Live {
  publish<T extends LiveTopic>(topic: T, key: string, payload: LiveTopics[T]): void;
  /** The events of `topic` for `key` from now on, until `signal` aborts. */
  subscribe<T extends LiveTopic>(topic: T, key: string, signal: AbortSignal): AsyncIterable<LiveTopics[T]>;
  close(): Promise<void>;
}

/** Live events within this process: what one instance needs (the embedded defaults). */
export function inProcessLive(): Live {
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const name = (topic: string, key: string): string => `${topic}\u0000${key}`;
  return {
    publish(topic, key, payload) {
      events.emit(name(topic, key), payload);
    },
    async *subscribe(topic, key, signal) {
      try {
        for await (const [payload] of on(events, name(topic, key), { signal })) {
          yield payload as LiveTopics[typeof topic];
        }
      } catch (error) {
        if (!signal.aborted) throw error;
      }
    },
    close() {
      events.removeAllListeners();
      return Promise.resolve();
    },
  };
}

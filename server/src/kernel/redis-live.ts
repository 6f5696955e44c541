import { EventEmitter, on } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Live, LiveTopics } from './live.js';

/** The Redis channels of live events: one per topic and key, so each instance hears only what its subscribers want. */
const PREFIX = 'lampstand:live:';

/**
 * Live events across instances through Redis pub/sub: one connection publishes, one listens (a
 * listening connection can do nothing else). An instance listens to a channel while at least one of
 * its subscribers wants it, and every event, its own too, comes back through Redis, so that all
 * instances see the same order. Payloads cross as JSON: plain values only (a date as its ISO text).
 * When Redis is down, publishing drops the event (logged), as an event no one hears is gone anyway.
 */
export async function redisLive(url: string, log: FastifyBaseLogger): Promise<Live> {
  const { Redis: RedisClient } = await import('ioredis');
  // Connecting in the background: an instance starts, and stays ready, while Redis is down (its
  // readiness says "degraded"); each connection keeps trying and reports errors below.
  const options = { maxRetriesPerRequest: 1 };
  const publisher: Redis = new RedisClient(url, { ...options, enableOfflineQueue: false });
  // The listener queues its SUBSCRIBE commands while reconnecting, and resubscribes on its own.
  const listener: Redis = new RedisClient(url, options);
  for (const connection of [publisher, listener]) {
    connection.on('error', (error: unknown) => {
      log.warn({ err: error }, 'redis error; live events between instances pause until it is back');
    });
  }
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const listening = new Map<string, number>();
  listener.on('message', (channel: string, message: string) => {
    try {
      events.emit(channel, JSON.parse(message) as unknown);
    } catch (error) {
      log.warn({ err: error, channel }, 'a live event that is not JSON was dropped');
    }
  });
  const channelOf = (topic: string, key: string): string => `${PREFIX}${topic}:${key}`;

  return {
    publish(topic, key, payload) {
      publisher.publish(channelOf(topic, key), JSON.stringify(payload)).catch((error: unknown) => {
        log.warn({ err: error, topic }, 'a live event could not be published');
      });
    },
    async *subscribe(topic, key, signal) {
      const channel = channelOf(topic, key);
      // Listening locally first: an event that arrives as soon as Redis confirms is not missed.
      const stream = on(events, channel, { signal });
      const count = (listening.get(channel) ?? 0) + 1;
      listening.set(channel, count);
      try {
        if (count === 1) await listener.subscribe(channel);
        for await (const [payload] of stream) yield payload as LiveTopics[typeof topic];
      } catch (error) {
        if (!signal.aborted) throw error;
      } finally {
        const left = (listening.get(channel) ?? 1) - 1;
        if (left > 0) listening.set(channel, left);
        else {
          listening.delete(channel);
          await listener.unsubscribe(channel).catch(() => undefined);
        }
      }
    },
    async close() {
      events.removeAllListeners();
      listener.disconnect();
      publisher.disconnect();
      return Promise.resolve();
    },
  };
}

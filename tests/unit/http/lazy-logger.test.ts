import { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyChildLogger, logsAt } from '../../../server/src/http/lazy-logger.js';

/** A pino logger at `level` whose lines are kept, parsed, without their time. */
function keptLogger(level: string): { logger: FastifyBaseLogger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      const { time: _time, ...line } = JSON.parse(chunk.toString('utf8')) as Record<string, unknown>;
      lines.push(line);
      callback();
    },
  });
  return { logger: pino({ level }, sink), lines };
}

/** Fastify calls the factory with the server as `this`; the lazy child does not use it. */
const childOf = (logger: FastifyBaseLogger, bindings: Record<string, unknown>, options = {}): FastifyBaseLogger =>
  lazyChildLogger.call(undefined as never, logger, bindings, options, undefined as never);

describe("a request's lazy logger", () => {
  it('writes exactly the lines pino’s own child writes, bindings included, at every level the parent writes', () => {
    const lazy = keptLogger('info');
    const eager = keptLogger('info');
    const requests = [childOf(lazy.logger, { requestId: 'r-1' }), eager.logger.child({ requestId: 'r-1' })];
    for (const log of requests) {
      log.debug({ ms: 3 }, 'request completed');
      log.info({ status: 404 }, 'request completed');
      log.error(new Error('boom'), 'request failed');
      log.child({ part: 'inner' }).warn('nested');
      log.trace('never');
    }
    const [lazyLines, eagerLines] = [lazy.lines, eager.lines];
    expect(lazyLines.length).toBe(3);
    expect(lazyLines).toEqual(eagerLines);
    expect(lazyLines[0]).toMatchObject({ requestId: 'r-1', status: 404, msg: 'request completed' });
    expect(lazyLines[2]).toMatchObject({ requestId: 'r-1', part: 'inner', msg: 'nested' });
  });

  it('makes no child while nothing is written, and follows the parent’s level until it does', () => {
    const { logger, lines } = keptLogger('warn');
    let made = 0;
    const child = logger.child.bind(logger);
    logger.child = (...args: Parameters<FastifyBaseLogger['child']>) => {
      made++;
      return child(...args);
    };
    const log = childOf(logger, { requestId: 'r-2' });
    log.info('quiet');
    log.debug('quiet');
    expect(made).toBe(0);
    expect(log.level).toBe('warn');
    expect(logsAt(log, 'info')).toBe(false);
    logger.level = 'debug';
    expect(logsAt(log, 'debug')).toBe(true);
    log.debug('now written');
    expect(made).toBe(1);
    expect(lines).toEqual([expect.objectContaining({ requestId: 'r-2', msg: 'now written' })]);
  });

  it('makes the child at once when the route gives it options (a level of its own)', () => {
    const { logger, lines } = keptLogger('info');
    const log = childOf(logger, { requestId: 'r-3' }, { level: 'debug' });
    log.debug('route level');
    expect(lines).toEqual([expect.objectContaining({ requestId: 'r-3', msg: 'route level' })]);
  });
});

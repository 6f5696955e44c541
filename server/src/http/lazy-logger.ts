import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Bindings = Record<string, unknown>;
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];

/**
 * Whether `logger` writes lines at `level`: pino says so itself (`isLevelEnabled`); a logger that
 * cannot say is taken to write every level.
 */
export function logsAt(logger: FastifyBaseLogger, level: string): boolean {
  const ask = (logger as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled;
  return typeof ask === 'function' ? ask.call(logger, level) : true;
}

/**
 * A request's logger, made when a line is first written at a level that is enabled. Fastify makes
 * a child logger for every request (its bindings serialised to JSON at once), though a request
 * that succeeds writes no line at the default level: that was ~2% of a profile read's main thread
 * when profiled (issue 32). A line at an enabled level, a child of it, or its level asked for make
 * the real child, which then answers everything, so lines are written exactly as before.
 */
class LazyLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly own: Bindings,
    private readonly options: ChildOptions,
  ) {}

  private real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.own, this.options));
  }

  private write(level: Level, args: unknown[]): void {
    // Without a level of its own, the child writes exactly what its parent's level lets through.
    if (this.made === undefined && !logsAt(this.parent, level)) return;
    const real = this.real() as unknown as Record<Level, (...line: unknown[]) => void>;
    real[level](...args);
  }

  get level(): string {
    return this.made?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  get msgPrefix(): string | undefined {
    return (this.real() as { msgPrefix?: string }).msgPrefix;
  }

  isLevelEnabled(level: string): boolean {
    return logsAt(this.made ?? this.parent, level);
  }

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }

  bindings(): Bindings {
    return (this.real() as unknown as { bindings(): Bindings }).bindings();
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {
    // Nothing is written at `silent`.
  }
}

/**
 * Fastify's `childLoggerFactory`: a lazy child (above) when the route sets no level or serialisers
 * of its own, else the child at once.
 */
export const lazyChildLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = function (
  logger,
  bindings,
  options,
) {
  if (Object.keys(options).length > 0) return logger.child(bindings, options);
  return new LazyLogger(logger, bindings, options);
};

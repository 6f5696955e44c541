/**
 * The time a sign-up answers no sooner than, so that the answer's time does not tell whether the
 * address already had an account (B10). A new address costs the records' transactions that a known
 * one does not; a fixed floor covers that on a quiet machine, but on a busy one the new address's
 * work outgrows it. So the floor follows the work: it is the larger of the fixed minimum and a high
 * percentile of how long recent new addresses took, forgetting readings older than a few minutes so
 * that it comes back down when the load does.
 */
export class AnswerFloor {
  private readonly readings: { at: number; ms: number }[] = [];

  constructor(
    private readonly options: {
      /** The floor on a quiet machine. */
      minimumMs: number;
      /** How many recent readings to keep. */
      keep?: number;
      /** Readings older than this are forgotten. */
      maxAgeMs?: number;
      /** The share of recent new addresses that finish within the floor. */
      percentile?: number;
      now?: () => number;
    },
  ) {}

  /** Notes how long a new address's work took (before any wait). */
  note(ms: number): void {
    const keep = this.options.keep ?? 32;
    this.readings.push({ at: this.now(), ms });
    if (this.readings.length > keep) this.readings.splice(0, this.readings.length - keep);
  }

  /** The current floor, in milliseconds. */
  floorMs(): number {
    const oldest = this.now() - (this.options.maxAgeMs ?? 5 * 60_000);
    const recent = this.readings
      .filter((reading) => reading.at >= oldest)
      .map((reading) => reading.ms)
      .sort((a, b) => a - b);
    if (recent.length === 0) return this.options.minimumMs;
    const index = Math.min(recent.length - 1, Math.ceil((this.options.percentile ?? 0.9) * recent.length) - 1);
    return Math.max(this.options.minimumMs, recent[index] ?? 0);
  }

  private now(): number {
    return this.options.now ? this.options.now() : performance.now();
  }
}

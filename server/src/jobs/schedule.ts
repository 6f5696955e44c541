import type { FastifyInstance } from 'fastify';
import type { DataSource } from 'typeorm';
import type {} from '../observability/metrics.js';
import { JobLeaseRecord } from './job-lease.entity.js';

/** How often an instance asks whether a job is due; the interval between runs is the job's own. */
const DEFAULT_CHECK_MS = 60_000;

/**
 * Claims the next run of `name` for this instance: true for exactly one caller per `intervalMs`
 * across every instance on the database (an insert that ignores a conflict, then an update that
 * only one instance's condition still matches).
 */
export async function claimRun(
  dataSource: DataSource,
  name: string,
  intervalMs: number,
  now = new Date(),
): Promise<boolean> {
  await dataSource
    .createQueryBuilder()
    .insert()
    .into(JobLeaseRecord)
    .values({ name, nextRunAt: new Date(0) })
    .orIgnore()
    .execute();
  const claimed = await dataSource
    .createQueryBuilder()
    .update(JobLeaseRecord)
    .set({ nextRunAt: new Date(now.getTime() + intervalMs) })
    .where('name = :name AND next_run_at <= :now', { name, now: now.getTime() })
    .execute();
  return claimed.affected === 1;
}

/** Moves the job's next run to `intervalMs` from now: while a run goes on, and when it ends. */
async function holdRun(dataSource: DataSource, name: string, intervalMs: number): Promise<void> {
  await dataSource
    .createQueryBuilder()
    .update(JobLeaseRecord)
    .set({ nextRunAt: new Date(Date.now() + intervalMs) })
    .where('name = :name', { name })
    .execute();
}

export interface ScheduledJob {
  /** The job's name in `job_leases` and in the log. */
  name: string;
  /** At most one run per this interval, across every instance. */
  intervalMs: number;
  run: () => Promise<void>;
  /** How often this instance asks whether the job is due (tests ask more often). */
  checkMs?: number;
}

/**
 * Runs `job` if its run is due and this instance claims it; true when it ran. While the run goes
 * on, the claim is renewed every half interval, so a run longer than its interval is never
 * started again elsewhere; an instance that dies mid-run lets the claim lapse within an interval.
 * The next run is due an interval after this one ends.
 */
export async function runIfDue(
  dataSource: DataSource,
  job: ScheduledJob,
  onHoldFailed: (error: unknown) => void,
): Promise<boolean> {
  if (!(await claimRun(dataSource, job.name, job.intervalMs))) return false;
  const renewal = setInterval(() => {
    holdRun(dataSource, job.name, job.intervalMs).catch(onHoldFailed);
  }, job.intervalMs / 2);
  renewal.unref();
  try {
    await job.run();
  } finally {
    clearInterval(renewal);
    await holdRun(dataSource, job.name, job.intervalMs).catch(onHoldFailed);
  }
  return true;
}

/**
 * Runs `job` once the server listens and then once per interval across every instance: each
 * instance checks now and then, and the one that claims the run does it. A failed run is logged
 * and waits for the next interval; a run still going on this instance is never started again.
 */
export function scheduleJob(app: FastifyInstance, dataSource: DataSource, job: ScheduledJob): void {
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = async (): Promise<void> => {
    if (running) return;
    running = true;
    try {
      const holdFailed = (error: unknown): void => {
        app.log.warn({ err: error, job: job.name }, 'background job: could not renew its claim');
      };
      if (await runIfDue(dataSource, job, holdFailed)) app.metrics.jobRun(job.name, 'ok');
    } catch (error) {
      app.metrics.jobRun(job.name, 'failed');
      app.log.error({ err: error, job: job.name }, 'background job failed; it runs again at its next interval');
    } finally {
      running = false;
    }
  };
  app.addHook('onListen', () => {
    void tick();
    timer = setInterval(() => void tick(), Math.min(job.checkMs ?? DEFAULT_CHECK_MS, job.intervalMs));
    timer.unref();
  });
  app.addHook('onClose', () => {
    clearInterval(timer);
  });
}

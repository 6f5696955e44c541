import type { DataSource, EntityManager } from 'typeorm';
import type { MemberRecords } from '../accounts/member-records.js';
import type { DataExportService } from '../exports/data-export.service.js';
import type { IdentityClient } from '../identity/identity.client.js';
import type { AccountLifecycle } from '../members/member-lifecycle.js';
import type { ReportService } from '../moderation/report.service.js';
import type { PageChanged } from '../profiles/page-changes.js';

/** What the operator's use cases work with; built once with the services (operator.module.ts). */
export interface OperatorDeps {
  dataSource: DataSource;
  identity: IdentityClient;
  records: MemberRecords;
  lifecycle: AccountLifecycle[];
  exports: DataExportService;
  reports: ReportService;
  /**
   * Ends every session of an account at once, when the identity service's tables are ours
   * (embedded mode); undefined in hosted mode, where a ban ends them at their next refresh.
   */
  endSessions: ((uid: string) => Promise<number>) | undefined;
  /** Tells the page's `profileChanged` subscribers, after a change committed, to read it afresh (or end). */
  pageChanged: PageChanged;
}

/** Where a command ran, read from the machine rather than from what the operator typed. */
export interface OperatorOrigin {
  osUser: string;
  host: string;
}

/** One run of a use case: its dependencies and the operator who runs it (for the audit log). */
export interface OperatorCall {
  deps: OperatorDeps;
  /** The name the operator gave (`--operator`), or the OS user. */
  operator: string;
  origin: OperatorOrigin;
}

/** Runs `work` in one transaction: the change and its audit row are written together or not at all. */
export function inTransaction<T>(call: OperatorCall, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  return call.deps.dataSource.transaction(work);
}

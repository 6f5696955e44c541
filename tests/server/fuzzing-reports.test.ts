// B6: property-based fuzzing of reportPage's input. Every run answers without a 5xx and with only
// the coded errors the mutation documents; a report that was queued holds the note as sent, trimmed.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportRecord } from '../../server/src/moderation/moderation.entities.js';
import { REPORT_REASONS } from '../../server/src/moderation/report.types.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { anyText, enumLike, expectCoded, FUZZ_ENV, optional, validExceptSome, wrongType } from '../support/fuzz.js';
import { insertMember } from '../support/factories.js';

const REPORT = 'mutation ($input: ReportPageInput!) { reportPage(input: $input) }';

let api: TestApp;
let username: string;
let uid: string;
beforeAll(async () => {
  // Each run comes from its own address, so that the hourly limit does not end the property early.
  api = await startTestApp({ ...FUZZ_ENV, TRUST_PROXY: 'true' });
  ({
    profile: { username, uid },
  } = await insertMember(api.dataSource));
});
afterAll(async () => {
  await api.close();
});

let runs = 0;

describe('reportPage (B6)', () => {
  it('answers any report with true or a coded error, and queues exactly what it accepted', async () => {
    const valid = fc.record({
      username: fc.constant(username),
      reason: fc.constantFrom(...REPORT_REASONS),
      note: fc.oneof(fc.constant(null), fc.string({ maxLength: 500 })),
    });
    const fuzzed = fc.record({
      username: fc.oneof(anyText(40), fc.constant(username.toUpperCase()), wrongType),
      reason: fc.oneof(enumLike(REPORT_REASONS), wrongType),
      note: fc.oneof(optional(anyText(600)), wrongType),
    });
    await fc.assert(
      fc.asyncProperty(validExceptSome(valid, fuzzed, ['username', 'reason', 'note']), async (input) => {
        runs += 1;
        const before = await api.dataSource.getRepository(ReportRecord).countBy({ uid });
        const response = await api.graphql(
          REPORT,
          { input },
          { headers: { 'x-forwarded-for': `198.51.100.${String(runs % 250)}` } },
        );
        const queued = expectCoded(response, ['BAD_USER_INPUT', 'NOT_FOUND', 'RATE_LIMITED']);
        const after = await api.dataSource
          .getRepository(ReportRecord)
          .find({ where: { uid }, order: { createdAt: 'DESC' } });
        expect(after.length).toBe(before + (queued ? 1 : 0));
        if (queued) {
          const note = typeof input.note === 'string' ? input.note.trim() : '';
          expect(after[0]?.note).toBe(note);
        }
      }),
      { numRuns: 60 },
    );
  });
});

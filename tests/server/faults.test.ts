import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';

/** The app's log lines, parsed (pino writes one JSON object per line). */
const logged: Record<string, unknown>[] = [];
let api: TestApp;
beforeAll(async () => {
  api = await startTestApp(
    { LOG_LEVEL: 'error' },
    { logStream: { write: (line) => logged.push(JSON.parse(line) as Record<string, unknown>) } },
  );
});
afterAll(async () => {
  await api.close();
});

describe('an unexpected failure inside a resolver (F8)', () => {
  it('reaches the client as a generic coded error, without SQL or stack, and the process stays up', async () => {
    await api.dataSource.query('DROP TABLE "verses"');
    const response = await api.graphql('{ verse(ref: "Obadiah 1:4") { text } }');
    expect(response.status).toBe(200);
    expect(response.errors).toEqual([
      {
        message: 'Something went wrong on our side. Please try again.',
        locations: [{ line: 1, column: 3 }],
        path: ['verse'],
        extensions: { code: 'INTERNAL_SERVER_ERROR' },
      },
    ]);
    expect(JSON.stringify(response)).not.toMatch(/verses|SELECT|sqlite|relation|stack/i);
    expect((await fetch(`${api.url}/healthz`)).status).toBe(200);
  });

  it('logs the failure as an error with its stack and the field it broke', async () => {
    logged.length = 0;
    await api.dataSource.query('DROP TABLE IF EXISTS "verses"');
    const response = await api.graphql('{ verse(ref: "Jonah 2:9") { text } }');
    expect(response.errors?.[0]?.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
    const errors = logged.filter((entry) => entry.level === 50);
    expect(errors).toEqual([
      expect.objectContaining({
        msg: 'unexpected error in a GraphQL operation',
        path: ['verse'],
        err: expect.objectContaining({ stack: expect.stringMatching(/verses[\s\S]*\n\s+at /) }),
      }),
    ]);
  });
});

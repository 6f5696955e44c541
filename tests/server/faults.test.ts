import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp();
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
});

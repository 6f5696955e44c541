// F11's heavy load (bench/figures/isolation.ts), pressed from a worker thread of its own: eight
// uploaders and forty card visitors, each asking again as soon as answered. Real clients are other
// machines; in the bench's own event loop their 48 fetch loops delayed the timer of the sign-ins
// being measured. Only Node's modules here: the bench's options module must not run twice.
import { parentPort, workerData } from 'node:worker_threads';

export interface LoadOrders {
  url: string;
  /** One bearer token and one image for each uploader. */
  uploads: { token: string; image: Uint8Array<ArrayBuffer> }[];
  cardVisitors: number;
  /** The first day (counted from 2001-01-01) whose card the visitors ask for; each asks for a new one. */
  firstDay: number;
}

export interface LoadResult {
  /** Answers to the uploads and card requests, by kind and status ("card 503"). */
  answers: Record<string, number>;
  /** The day after the last one asked for. */
  nextDay: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits as long as a 503 or 429 says (at most a second: the load keeps pressing). */
async function backOff(response: Response): Promise<void> {
  const seconds = Number(response.headers.get('retry-after') ?? 1);
  await sleep(Math.min(1000, Math.max(50, seconds * 1000)));
}

async function press({ url, uploads, cardVisitors, firstDay }: LoadOrders): Promise<void> {
  const phase = { loading: true };
  parentPort?.once('message', () => {
    phase.loading = false;
  });
  let day = firstDay;
  const nextDay = () => new Date(Date.UTC(2001, 0, 1) + day++ * 86_400_000).toISOString().slice(0, 10);
  const answers: Record<string, number> = {};
  const count = (kind: string, status: number) => {
    const key = `${kind} ${status}`;
    answers[key] = (answers[key] ?? 0) + 1;
  };
  const uploader = async (token: string, image: Uint8Array<ArrayBuffer>) => {
    while (phase.loading) {
      const response = await fetch(`${url}/api/photo`, {
        method: 'PUT',
        headers: { 'content-type': 'image/png', authorization: `Bearer ${token}` },
        body: image,
      });
      await response.arrayBuffer();
      count('upload', response.status);
      if (response.status === 503 || response.status === 429) await backOff(response);
    }
  };
  const visitor = async () => {
    while (phase.loading) {
      const response = await fetch(`${url}/share/verse-of-the-day/${nextDay()}.png`);
      await response.arrayBuffer();
      count('card', response.status);
      if (response.status === 503 || response.status === 429) await backOff(response);
    }
  };
  const pressing = Promise.all([
    ...uploads.map(({ token, image }) => uploader(token, image)),
    ...Array.from({ length: cardVisitors }, visitor),
  ]);
  // Every request is on its way: the bench may start timing.
  parentPort?.postMessage('pressing');
  await pressing;
  const result: LoadResult = { answers, nextDay: day };
  parentPort?.postMessage(result);
}

if (parentPort) await press(workerData as LoadOrders);

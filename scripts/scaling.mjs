// `npm run scaling [-- results.json]`: the capacity model of docs/scaling.md, from the figures of a
// bench run (the newest full run in bench/results/, else the newest quick one): how many app
// instances, how much PostgreSQL and Redis work, and where the first limit is, for 1 million
// members and 50 million page views a day with a peak of five times the day's mean. The costs are
// measured (P11's CPU per request kind and hit ratio, P10's PostgreSQL floor); the statement counts
// are read from the code paths, which the bench does not count.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The load to plan for (issue 32). */
const MEMBERS = 1_000_000;
const VIEWS_PER_DAY = 50_000_000;
const PEAK = 5;
/** The share of an instance's core planned for: the rest absorbs GC pauses, deploys and a lost instance's share. */
const CPU_BUDGET = 0.6;
/** Page views a visitor makes that count (B15: a visitor's first view of a page that day, no bots). */
const COUNTED_SHARE = 0.7;
/** The kept answers' lifetime: answers are kept within the minute they were made (graphql/answer-cache.ts). */
const ANSWER_LIFETIME_S = 60;

/**
 * SQL statements per request, from the code paths (not measured): every page read looks the profile
 * up (1); one made afresh then runs the page's query, the profile with its owner, links and the
 * day's verse (L4 bounds it at 3), and the verses of the days either side (1); a kept rendering runs
 * nothing more; a click reads the link, then the page with its owner; `me` checks the session and reads the profile
 * with its owner; an edit is a transaction of five. Counting a view or a click adds one upsert when it is the
 * visitor's first that day (COUNTED_SHARE).
 */
const STATEMENTS = { hit: 1, miss: 5, click: 2, me: 2, edit: 5 };
/** Redis commands per request with Redis configured: the day's first-visit check of a view or a click, an edit's notice. */
const REDIS = { read: 1, click: 1, edit: 1 };

function newestResults() {
  const argument = process.argv[2];
  if (argument) return path.resolve(argument);
  const folder = path.join(root, 'bench/results');
  const files = (existsSync(folder) ? readdirSync(folder) : []).filter((name) => name.endsWith('.json')).sort();
  const full = files.filter((name) => !name.includes('-quick'));
  const chosen = full.at(-1) ?? files.at(-1);
  if (!chosen) throw new Error('no bench results: run `npm run bench -- --only P10,P11` first');
  return path.join(folder, chosen);
}

const file = newestResults();
const results = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(results.figures.map((figure) => [figure.id, figure]));
const day = byId.get('P11')?.detail;
if (!day) throw new Error(`${file} has no P11: run \`npm run bench -- --only P11\``);
/** The floor's own rate in a figure's note ("… vs 1234 req/s"): one prepared statement per request. */
const floorRate = (id) => Number(/vs (\d+) req\/s/.exec(byId.get(id)?.note ?? '')?.[1] ?? Number.NaN);

/** H(n), the n-th harmonic number, to within 1e-6 for large n. */
const harmonic = (n) =>
  n < 1000
    ? Array.from({ length: n }, (_, i) => 1 / (i + 1)).reduce((a, b) => a + b, 0)
    : Math.log(n) + 0.5772156649 + 1 / (2 * n);

/** How many distinct pages `views` Zipf-visited views over `pages` pages touch: what a CDN fetches once per lifetime. */
function distinctPages(views, pages) {
  const total = harmonic(pages);
  let distinct = 0;
  for (let rank = 1; rank <= pages; rank++) distinct += 1 - Math.exp(-views / (rank * total));
  return distinct;
}

const fixed = (value, digits = 0) =>
  value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
/** P11's mix as sent (its answered shares lean towards the quicker kinds). */
const MIX = { read: 0.88, click: 0.06, me: 0.04, edit: 0.02 };
const share = (kind) => MIX[kind];
/** The answer cache's memory (GRAPHQL_ANSWER_CACHE_MB's default) and what an entry costs in it: key (~100), body, 128. */
const ANSWER_CACHE_CHARS = 32 * 1024 * 1024;

const meanViews = VIEWS_PER_DAY / 86_400;
const peakViews = meanViews * PEAK;
// A view is one request, the page's HTML document, which carries the page itself (rendered by the
// server, from kept renderings when it can); clicks, `me` and edits come with it in P11's proportions.
const perView = {
  click: share('click') / share('read'),
  me: share('me') / share('read'),
  edit: share('edit') / share('read'),
};
// Kept renderings: each instance keeps its own, an edit drops the edited page's alone, and the turn
// of the minute empties them all. Within a minute an instance serves R reads; a read is a hit when
// its page was read earlier that minute: 1 − distinct(R) / R, bounded by the renderings that fit.
const fitting = Math.floor(ANSWER_CACHE_CHARS / ((day.answerChars ?? 2000) + 100 + 128));
/** The share of reads the renderings that fit can answer, over `pages` Zipf pages. */
const memoryBound = (pages) => harmonic(Math.min(fitting, pages)) / harmonic(pages);
const hitPerPage = memoryBound(MEMBERS);
const hitOf = (reads, pages) => (reads < 1 ? 0 : Math.min(1 - distinctPages(reads, pages) / reads, memoryBound(pages)));
const cpuPerViewAt = (hitRatio) =>
  hitRatio * day.cpuMs_hit +
  (1 - hitRatio) * day.cpuMs_miss +
  perView.click * day.cpuMs_click +
  perView.me * day.cpuMs_me +
  perView.edit * day.cpuMs_edit;
/** Instances for `views`/s, and their hit ratio: more instances each keep less of the curve, so settle both together. */
function fleetAt(views) {
  let instances = 2;
  let hitRatio = 0;
  for (let round = 0; round < 50; round++) {
    hitRatio = hitOf((views * ANSWER_LIFETIME_S) / instances, MEMBERS);
    const next = Math.ceil((views * cpuPerViewAt(hitRatio)) / 1000 / CPU_BUDGET) + 1;
    if (next === instances) break;
    instances = next;
  }
  return { instances, hitRatio };
}
const peak = fleetAt(peakViews);
const mean = fleetAt(meanViews);
// The same rule for P11's own counted reads (one instance, 10k or 100k pages, runs shorter than a minute).
const hitP11 = day.readsCounted ? hitOf(day.readsCounted, day.profiles) : Number.NaN;
const hitRatio = peak.hitRatio;
const cpuPerView = cpuPerViewAt(hitRatio);
const cores = (peakViews * cpuPerView) / 1000;
const instances = peak.instances;
const readStatements =
  hitRatio * STATEMENTS.hit +
  (1 - hitRatio) * STATEMENTS.miss +
  perView.click * STATEMENTS.click +
  perView.me * STATEMENTS.me +
  perView.edit * STATEMENTS.edit;
const writes = COUNTED_SHARE * (1 + perView.click) + perView.edit;
const statementsPeak = peakViews * (readStatements + writes);
const writesPeak = peakViews * writes;
const postgresFloor = floorRate('P10');
const redisPeak = peakViews * (REDIS.read + perView.click * REDIS.click + perView.edit * REDIS.edit);
const cdnOriginReads = distinctPages(peakViews * ANSWER_LIFETIME_S, MEMBERS) / ANSWER_LIFETIME_S;

const lines = [
  `Capacity model from ${path.relative(root, file)} (${results.quick ? 'a QUICK run: small sizes, short runs' : 'a full run'}, ${results.date}, ${results.cores} cores)`,
  '',
  `Load: ${fixed(MEMBERS)} members, ${fixed(VIEWS_PER_DAY)} page views a day = ${fixed(meanViews)} views/s mean, ${fixed(peakViews)} at the ${PEAK}× peak`,
  `  per view: 1 request, the page's HTML document, rendered by the server; + ${fixed(perView.click, 3)} link clicks, ${fixed(perView.me, 3)} \`me\`, ${fixed(perView.edit, 3)} edits (P11's mix)`,
  `  peak requests/s: ${fixed(peakViews * (1 + perView.click + perView.me + perView.edit))}`,
  '',
  `Kept renderings: ${fixed(fitting)} pages of ${day.answerChars ?? '~2000'} characters fit in 32 MB: at most ${fixed(100 * hitPerPage, 1)}% of reads over ${fixed(MEMBERS)} Zipf pages`,
  `  they last until the minute turns (an edit drops its own page only): ${fixed((peakViews * ANSWER_LIFETIME_S) / instances)} reads per instance a minute at the peak → ${fixed(100 * hitRatio, 1)}% kept`,
  `  (P11 measured ${fixed(100 * day.hitRatio, 1)}% over ${fixed(day.profiles)} pages; the same rule says ${Number.isFinite(hitP11) ? `${fixed(100 * hitP11, 1)}%` : 'nothing (a run before `readsCounted`)'} for its ${fixed(day.readsCounted ?? 0)} reads)`,
  '',
  `CPU per request (P11, ms of the server's CPU): page read kept ${day.cpuMs_hit} / made ${day.cpuMs_miss}, click ${day.cpuMs_click}, me ${day.cpuMs_me}, edit ${day.cpuMs_edit}`,
  `  per view with its share of the rest: ${fixed(cpuPerView, 2)} ms → ${fixed(cores, 1)} cores busy at peak`,
  `  app instances (one core each, ${CPU_BUDGET * 100}% of it planned): ${instances} (N+1 behind the proxy; ${mean.instances} at the mean, keeping ${fixed(100 * mean.hitRatio, 1)}%)`,
  byId.get('P6')
    ? `  memory: ${byId.get('P6').value} MB RSS each (P6) → ${fixed((instances * byId.get('P6').value) / 1024, 1)} GB`
    : '  memory: no P6 in this run (≤ 250 MB each is its target)',
  '',
  `PostgreSQL at peak: ${fixed(statementsPeak)} statements/s, of them ${fixed(writesPeak)} writes/s (view and click counts ${fixed(peakViews * COUNTED_SHARE * (1 + perView.click))}, edits ${fixed(peakViews * perView.edit)})`,
  Number.isFinite(postgresFloor)
    ? `  the bench's PostgreSQL answered ${fixed(postgresFloor)} indexed reads/s to the bare floor (P10, on ${results.cores} shared cores): peak needs ${fixed(statementsPeak / postgresFloor, 1)}× that`
    : '  (no P10 in this run: `npm run bench -- --only P10,P11` gives the measured PostgreSQL floor)',
  `Redis at peak: ${fixed(redisPeak)} commands/s (first-visit checks, edit notices): a small share of one Redis core`,
  '',
  `First limit: the PostgreSQL primary's writes. Reads grow with misses and spread over replicas; every`,
  `  counted view and click is an upsert on the primary (${fixed(writesPeak)}/s at peak, the most visited page's row taking ${fixed(100 / harmonic(MEMBERS), 1)}% of them).`,
  `  Then: count views in Redis (INCR per page and day) and write the sums once a minute: ~${fixed(distinctPages(peakViews * 60 * COUNTED_SHARE, MEMBERS) / 60)} upserts/s at peak.`,
  `CDN before /@username (s-maxage ${ANSWER_LIFETIME_S}, purged on edit): origin page reads fall from ${fixed(peakViews)} to ~${fixed(cdnOriginReads)}/s per CDN node at peak`,
];
console.log(lines.filter((line, index) => line !== '' || lines[index - 1] !== '').join('\n'));

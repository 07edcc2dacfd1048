import { measureActivityThroughput, printActivityThroughput } from './activity-throughput.ts';
const url = process.argv[2];
const durationMs = Number(process.argv[3] ?? 2000);
const t0 = performance.now();
const f = await measureActivityThroughput({ databaseUrl: url, durationMs });
printActivityThroughput(url ? 'PostgreSQL' : 'PGlite', f);
console.log(JSON.stringify(f), ((performance.now() - t0) / 1000).toFixed(1), 's');

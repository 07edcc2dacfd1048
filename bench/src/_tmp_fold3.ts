import { foldActivities } from '@vers/domain';
import { orderActivities } from './fold.ts';
const rows = orderActivities();
const t = (f: () => void) => { const s = performance.now(); f(); return performance.now() - s; };
const fold = () => foldActivities(rows);
const base = () => { const m = new Map(); for (const r of [...rows].sort((a, b) => a.counter - b.counter)) m.set(r.key, r.outputValue); };
for (let i = 0; i < 5; i++) { fold(); base(); }
const a: number[] = [], b: number[] = [];
for (let i = 0; i < 21; i++) { a.push(t(fold)); b.push(t(base)); }
console.log('interleaved fold', a.map((x) => x.toFixed(1)).join(' '));
console.log('interleaved base', b.map((x) => x.toFixed(1)).join(' '));
const c: number[] = []; for (let i = 0; i < 21; i++) c.push(t(fold));
console.log('block fold', c.map((x) => x.toFixed(1)).join(' '));

import { measureFold, printFold } from './fold.ts';
const t = performance.now();
const f = measureFold();
printFold(f);
console.log(JSON.stringify(f), ((performance.now() - t) / 1000).toFixed(1), 's');

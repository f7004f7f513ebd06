#!/usr/bin/env node
/*
 * Sums a V8 heap snapshot (bench/scale --heap-snapshot) by constructor name: the objects' own
 * sizes, their count, and the largest groups first; strings by their first characters.
 *   node bench/scale/heapSummary.js <file.heapsnapshot> [top]
 */
const fs = require('node:fs');

const [file, topText] = process.argv.slice(2);
const snapshot = JSON.parse(fs.readFileSync(file, 'utf8'));
const { meta } = snapshot.snapshot;
const fields = meta.node_fields;
const types = meta.node_types[0];
const width = fields.length;
const at = name => fields.indexOf(name);
const [TYPE, NAME, SIZE] = [at('type'), at('name'), at('self_size')];
const groups = new Map();
let total = 0;
for (let i = 0; i < snapshot.nodes.length; i += width) {
  const type = types[snapshot.nodes[i + TYPE]];
  let name = snapshot.strings[snapshot.nodes[i + NAME]];
  if (
    type === 'string' ||
    type === 'concatenated string' ||
    type === 'sliced string'
  ) {
    name = `string: ${name.slice(0, 40).replace(/\s+/g, ' ')}`;
  } else name = `${type}: ${name}`;
  const size = snapshot.nodes[i + SIZE];
  total += size;
  const g = groups.get(name) ?? { size: 0, count: 0 };
  g.size += size;
  g.count++;
  groups.set(name, g);
}
const mb = n => (n / 1048576).toFixed(1);
console.log(
  `total ${mb(total)} MB in ${snapshot.nodes.length / width} objects`,
);
for (const [name, g] of [...groups]
  .sort((a, b) => b[1].size - a[1].size)
  .slice(0, Number(topText ?? 40))) {
  console.log(
    `${mb(g.size).padStart(7)} MB ${String(g.count).padStart(8)}  ${name}`,
  );
}

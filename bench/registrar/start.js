#!/usr/bin/env node
/*
 * bench/registrar/start.js: the registrar CLI's start time, `infrared-registrar --version` as a
 * fresh process, from its built output (bin/infrared-registrar.js -> dist/registrar/*.cjs, plain
 * node) against the TypeScript sources through Backstage's node transform (how the bin ran before).
 *   node bench/registrar/start.js [--runs 9]
 * Prints the median and the range over the runs, in milliseconds. Spawns only local processes.
 */
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const pkg = path.join(__dirname, '..', '..', 'plugins', 'infrared-registrar');
const i = process.argv.indexOf('--runs');
const runs = Math.min(Math.max(Number(i > 0 ? process.argv[i + 1] : 9), 1), 50);

function time(args) {
  const ms = [];
  for (let n = 0; n < runs; n++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, {
      cwd: pkg,
      encoding: 'utf8',
      timeout: 60_000,
    });
    if (r.status !== 0 || !/^infrared-registrar version /.test(r.stdout)) {
      throw new Error(`${args.join(' ')}: ${r.status} ${r.stdout}${r.stderr}`);
    }
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  ms.sort((a, b) => a - b);
  const median = ms[Math.floor(ms.length / 2)];
  return `median ${Math.round(median)} ms (${Math.round(ms[0])}-${Math.round(
    ms[ms.length - 1],
  )} ms over ${runs} runs)`;
}

// Built once first (the bin would build it on its first start otherwise).
require(path.join(pkg, 'bin', 'build-registrar.js')).build();
console.log(
  `built output (plain node):   ${time([
    path.join(pkg, 'bin', 'infrared-registrar.js'),
    '--version',
  ])}`,
);
console.log(
  `sources (node transform):    ${time([
    '-e',
    `require(require.resolve('@backstage/cli/config/nodeTransform.cjs'));` +
      `require('./src/command.ts').run(['--version'])`,
  ])}`,
);

#!/usr/bin/env node
/*
 * bench/devenv: cold build time of the control-plane binaries, warm start time of management + one
 * workload cluster (anchor: 15 s on a 2-core machine) and the RSS of the started processes.
 *   node bench/devenv/run.js [--runs N]
 */
const fs = require('node:fs');
const path = require('node:path');

require('../runTs').registerTransform();
const devenv = require('../../packages/devenv/src/index.ts');

const WARM_ANCHOR_S = 15;
const runsArg = process.argv.indexOf('--runs');
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 3;

async function main() {
  const bins = devenv.ensureBinaries();
  const timingFile = path.join(devenv.cacheDir(), 'build-timing.json');
  if (bins.builtSeconds !== undefined) {
    console.log(`cold build: ${bins.builtSeconds} s (built now)`);
  } else if (
    fs.existsSync(timingFile) &&
    bins.dir.startsWith(devenv.cacheDir())
  ) {
    const t = JSON.parse(fs.readFileSync(timingFile, 'utf8'));
    console.log(
      `cold build: ${t.totalSeconds} s (etcd ${t.etcdSeconds} s, kube ${t.kubeSeconds} s; recorded ${t.builtAt})`,
    );
  } else {
    console.log(`cold build: n/a (binaries from ${bins.dir})`);
  }

  const starts = [];
  let rss = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    const cp = await devenv.startControlPlane({
      clusters: ['management', 'workload-a'],
      binaries: bins,
      ownerPid: process.pid,
    });
    starts.push(Number(process.hrtime.bigint() - t0) / 1e9);
    await new Promise(r => setTimeout(r, 5000)); // let the controller manager settle
    rss = Math.max(rss, devenv.rssBytes(cp.state.processes));
    await cp.stop();
  }
  starts.sort((a, b) => a - b);
  const median = starts[Math.floor(starts.length / 2)];
  console.log(
    `warm start (management + 1 workload, ${runs} runs): median ${median.toFixed(
      1,
    )} s, ` +
      `min ${starts[0].toFixed(1)} s, max ${starts[starts.length - 1].toFixed(
        1,
      )} s; ` +
      `ratio to the ${WARM_ANCHOR_S} s anchor: ${(
        median / WARM_ANCHOR_S
      ).toFixed(2)}`,
  );
  console.log(
    `rss (etcd + 2 kube-apiserver + kube-controller-manager): ${(
      rss /
      2 ** 20
    ).toFixed(0)} MiB`,
  );
}

main().catch(e => {
  console.error(e.message);
  process.exit(1);
});

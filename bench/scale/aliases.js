#!/usr/bin/env node
/*
 * A child process of bench/scale: `count` addresses of their own for one devenv cluster (devenv's
 * serverAlias, loopback forwarders), since POST /v1/clusters takes one registration per API server
 * (issue 23.1). Run apart so the forwarding costs the measured process no CPU or memory.
 *   node bench/scale/aliases.js <state file> <cluster> <count>
 * Prints one JSON line, the aliases' kubeconfigs; runs until its stdin closes.
 */
require('../runTs').registerTransform();
const { serverAlias } = require('../../packages/devenv/src/serverAlias');

async function main() {
  const [statePath, cluster, count] = process.argv.slice(2);
  const kubeconfigs = [];
  for (let i = 0; i < Number(count); i++) {
    kubeconfigs.push((await serverAlias(statePath, cluster)).kubeconfig);
  }
  process.stdout.write(`${JSON.stringify(kubeconfigs)}\n`);
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});

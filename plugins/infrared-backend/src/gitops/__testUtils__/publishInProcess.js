// Runs publishInProcess.ts in this process through Backstage's node transform (see bench/runTs.js).
require(require.resolve('@backstage/cli/config/nodeTransform.cjs'));
require('./publishInProcess.ts')
  .publishInProcess(process.argv.slice(2))
  .catch(error => {
    process.stderr.write(String(error.stack));
    process.exit(1);
  });

/*
 * Runs a TypeScript benchmark's exported main() through Backstage's node transform (swc),
 * so nothing is compiled first. Exits with 1 and the error when main() fails.
 */
function registerTransform() {
  for (const id of [
    '@backstage/cli/config/nodeTransform.cjs',
    '@backstage/cli-node/config/nodeTransform.cjs',
  ]) {
    try {
      require(require.resolve(id, { paths: [__dirname, process.cwd()] }));
      return;
    } catch (e) {
      if (e.code !== 'MODULE_NOT_FOUND') throw e;
    }
  }
  throw new Error('@backstage/cli is not installed: run `npm install` at the repo root');
}

function runTsMain(file) {
  registerTransform();
  require(file)
    .main()
    .then(() => process.exit(0))
    .catch(error => {
      console.error(error);
      process.exit(1);
    });
}

module.exports = { runTsMain };

/*
 * Runs a TypeScript benchmark's exported main() through Backstage's node transform (swc),
 * so nothing is compiled first. Exits with 1 and the error when main() fails.
 */
function registerTransform() {
  require(require.resolve('@backstage/cli/config/nodeTransform.cjs', {
    paths: [__dirname, process.cwd()],
  }));
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

module.exports = { runTsMain, registerTransform };

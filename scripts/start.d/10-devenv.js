module.exports = require('../../packages/devenv/start-hook');

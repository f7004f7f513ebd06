/*
 * The external-access token that callers outside the portal (curl, CI) send as
 * `Authorization: Bearer`. Taken from INFRARED_TOKEN when set; otherwise generated once
 * into .data/infrared.token (git-ignored, readable only by its owner).
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

module.exports = async function apiToken({ repoRoot, env }) {
  if (env.INFRARED_TOKEN) return {};
  const file = path.join(repoRoot, '.data', 'infrared.token');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, crypto.randomBytes(24).toString('base64url'), {
      mode: 0o600,
    });
  }
  console.log(`[start] API token for curl: $(cat ${path.relative(process.cwd(), file)})`);
  return { INFRARED_TOKEN: fs.readFileSync(file, 'utf8').trim() };
};

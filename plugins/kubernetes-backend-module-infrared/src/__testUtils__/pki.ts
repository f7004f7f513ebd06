import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A self-signed certificate and its key (PEM), made by openssl as devenv makes its PKI. */
export function selfSignedPem(commonName = 'test'): {
  cert: string;
  key: string;
} {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'k8s-module-pki-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        `/CN=${commonName}`,
        '-keyout',
        'key.pem',
        '-out',
        'cert.pem',
      ],
      { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    return {
      cert: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
      key: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export const b64 = (s: string) => Buffer.from(s).toString('base64');

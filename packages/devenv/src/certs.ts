import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Files of one cluster's PKI, all PEM. */
export interface ClusterPki {
  caCert: string;
  caKey: string;
  servingCert: string;
  servingKey: string;
  adminCert: string;
  adminKey: string;
  saPublicKey: string;
  saPrivateKey: string;
}

function openssl(args: string[], cwd: string) {
  try {
    execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (e: any) {
    if (e.code === 'ENOENT') {
      throw new Error(
        'devenv: the `openssl` command is required to make certificates (apt-get install openssl)',
      );
    }
    throw new Error(
      `devenv: openssl ${args[0]} failed: ${e.stderr?.toString() ?? e.message}`,
    );
  }
}

const EC = [
  '-newkey',
  'ec',
  '-pkeyopt',
  'ec_paramgen_curve:prime256v1',
  '-nodes',
];

function issue(dir: string, name: string, subj: string, ext: string) {
  fs.writeFileSync(path.join(dir, `${name}.ext`), ext);
  openssl(
    [
      'req',
      '-new',
      ...EC,
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.csr`,
      '-subj',
      subj,
    ],
    dir,
  );
  openssl(
    [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '3650',
      '-sha256',
      '-extfile',
      `${name}.ext`,
      '-out',
      `${name}.crt`,
    ],
    dir,
  );
}

/**
 * Makes (or reuses, when already present) a CA, a serving certificate for 127.0.0.1/localhost,
 * an admin client certificate in group system:masters and a service-account signing key pair.
 */
export function ensureClusterPki(dir: string, clusterName: string): ClusterPki {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const p = (f: string) => path.join(dir, f);
  if (!fs.existsSync(p('sa.pub'))) {
    openssl(
      [
        'req',
        '-x509',
        ...EC,
        '-keyout',
        'ca.key',
        '-out',
        'ca.crt',
        '-days',
        '3650',
        '-subj',
        `/CN=devenv-${clusterName}-ca`,
        '-addext',
        'basicConstraints=critical,CA:TRUE',
        '-addext',
        'keyUsage=critical,keyCertSign,cRLSign,digitalSignature',
      ],
      dir,
    );
    issue(
      dir,
      'serving',
      '/CN=kube-apiserver',
      'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n' +
        'extendedKeyUsage=serverAuth\n' +
        'subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,' +
        'DNS:kubernetes.default.svc,IP:10.0.0.1\n',
    );
    issue(
      dir,
      'admin',
      '/O=system:masters/CN=devenv-admin',
      'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n',
    );
    const sa = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    fs.writeFileSync(
      p('sa.key'),
      sa.privateKey.export({ type: 'pkcs8', format: 'pem' }),
      { mode: 0o600 },
    );
    fs.writeFileSync(
      p('sa.pub'),
      sa.publicKey.export({ type: 'spki', format: 'pem' }),
    );
  }
  return {
    caCert: p('ca.crt'),
    caKey: p('ca.key'),
    servingCert: p('serving.crt'),
    servingKey: p('serving.key'),
    adminCert: p('admin.crt'),
    adminKey: p('admin.key'),
    saPublicKey: p('sa.pub'),
    saPrivateKey: p('sa.key'),
  };
}

/* `devenv up`'s demo environment: what it adds to the control plane on every run. */
import { ARGOCD_ENV, downDemoArgoCd, upDemoArgoCd } from './argocdDemo';
import type { ControlPlane } from './controlPlane';
import { setUpDemo } from './demo';
import { setUpPlacementDemo } from './demoPlacement';
import { demoBuilds } from './prepare';

/**
 * The demo's namespaces, Nodes, kubeconfig files and child cluster (demo.ts), Argo CD (argocdDemo.ts)
 * and the placement demo, reusing what is there.
 */
export async function demoSetup(
  cp: ControlPlane,
  dataDir: string,
  repoRoot: string,
  say: (m: string) => void,
) {
  await setUpDemo(cp, { dataDir, repoRoot, log: m => say(`devenv: ${m}`) });
  const argo = await demoArgoCd(cp, dataDir, repoRoot, say);
  const placement = await setUpPlacementDemo(cp.clusters[0], {
    repoRoot,
    argoCdRuns: !!argo,
    repoUrl: argo?.gitUrl,
  });
  say(
    `devenv: placement demo: Organization ${placement.org}, Product ${
      placement.namespace
    }/${placement.product} (zones ${placement.zones.join(', ')}), Release ${
      placement.release
    }${
      placement.created.length ? `; made ${placement.created.join(', ')}` : ''
    }`,
  );
}

/** The demo's Argo CD, started or reused and bootstrapped; none (and a running one stopped) when off. */
async function demoArgoCd(
  cp: ControlPlane,
  dataDir: string,
  repoRoot: string,
  say: (m: string) => void,
) {
  if (process.env[ARGOCD_ENV] === 'off') {
    if (await downDemoArgoCd(cp))
      say(`devenv: Argo CD stopped (${ARGOCD_ENV}=off)`);
    else say(`devenv: no Argo CD (${ARGOCD_ENV}=off)`);
    return undefined;
  }
  if (
    !demoBuilds()
      .find(b => b.name === 'argocd')
      ?.built()
  ) {
    say(
      'devenv: Argo CD is not built yet: devenv prepare builds it in the background and starts it then',
    );
    return undefined;
  }
  const started = Date.now();
  let argo;
  try {
    argo = await upDemoArgoCd(cp, {
      dataDir,
      repoRoot,
      log: m => say(m.startsWith('devenv: ') ? m : `devenv: ${m}`),
    });
  } catch (e) {
    // The portal still starts (its Argo CD row then cannot ask); `up` tries again next time.
    await downDemoArgoCd(cp);
    say(
      `devenv: Argo CD did not start, going on without it (${ARGOCD_ENV}=off skips it): ${
        (e as Error).message
      }`,
    );
    return undefined;
  }
  say(
    `devenv: Argo CD ${argo.reused ? 'reused' : 'started'} in ${(
      (Date.now() - started) /
      1000
    ).toFixed(1)}s: ${argo.url}, gitops repo ${
      argo.gitUrl
    }; bootstrap: ${argo.bootstrapped.join(', ')}`,
  );
  return argo;
}

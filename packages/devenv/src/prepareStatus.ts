/*
 * What `devenv prepare` tells the portal while it builds tofu and Argo CD in the background: the
 * status file (.data/devenv/prepare.json), kept as plain JSON so the backend reads it without this
 * package (infrared.provisioning.runnerStatusFile). The progress is pure arithmetic over what the
 * build printed; unit-tested with tables.
 */

/** One thing `devenv prepare` builds. */
export interface PrepareItem {
  /** `tofu` or `argocd`. */
  name: string;
  /** What the portal calls it: OpenTofu, Argo CD. */
  title: string;
  state: 'waiting' | 'downloading' | 'building' | 'ready' | 'failed';
  /** How long a cold build takes on a 2-core machine (the estimate before the build says more). */
  typicalSeconds: number;
  /** ms since the epoch: when its download began, and when its compilation began. */
  startedAt?: number;
  buildStartedAt?: number;
  /** The Go packages to compile (go list -deps, standard library left out) and those compiled so far. */
  packagesTotal?: number;
  packagesDone?: number;
  /** Why it failed (the build's last words). */
  error?: string;
}

/** The file's content: every item with its progress worked out at `updatedAt`. */
export interface PrepareStatusFile {
  updatedAt: string;
  /** The `devenv prepare` process, while it runs. */
  pid?: number;
  log?: string;
  items: Array<PrepareItem & { percent: number; secondsLeft: number }>;
}

/** The line the build scripts print once they know how many packages they compile. */
const TOTAL_LINE = /^devenv-progress: packages (\d+)$/;
/** What `go build -v` prints per package it compiles: an import path outside the standard library. */
const PACKAGE_LINE = /^[a-z0-9][-a-z0-9_.]*\.[a-z]+\/\S+$/i;

/** The item after the build printed `line` (stderr or stdout of scripts/build-*.sh). */
export function applyBuildLine(
  item: PrepareItem,
  line: string,
  now: number,
): PrepareItem {
  const total = TOTAL_LINE.exec(line.trim());
  if (total) {
    return {
      ...item,
      state: 'building',
      buildStartedAt: now,
      packagesTotal: Number(total[1]),
      packagesDone: 0,
    };
  }
  if (item.state === 'building' && PACKAGE_LINE.test(line.trim())) {
    return { ...item, packagesDone: (item.packagesDone ?? 0) + 1 };
  }
  return item;
}

/** The share of the work that is the download, before compilation starts (the rest is compiling). */
const DOWNLOAD_SHARE = 0.1;

/** Percent done (0-100) and seconds left of one item at `now`. */
export function progressOf(
  item: PrepareItem,
  now: number,
): { percent: number; secondsLeft: number } {
  const typical = item.typicalSeconds;
  switch (item.state) {
    case 'ready':
      return { percent: 100, secondsLeft: 0 };
    case 'failed':
      return { percent: 0, secondsLeft: 0 };
    case 'waiting':
      return { percent: 0, secondsLeft: typical };
    case 'downloading': {
      const elapsed = (now - (item.startedAt ?? now)) / 1000;
      const share = Math.min(elapsed / (typical * DOWNLOAD_SHARE), 0.95);
      return {
        percent: Math.floor(share * DOWNLOAD_SHARE * 100),
        secondsLeft: Math.round(
          Math.max(typical - elapsed, typical * (1 - DOWNLOAD_SHARE)),
        ),
      };
    }
    default: {
      const total = Math.max(item.packagesTotal ?? 1, 1);
      const f = Math.min((item.packagesDone ?? 0) / total, 0.99);
      const elapsed = (now - (item.buildStartedAt ?? now)) / 1000;
      const fromTypical = typical * (1 - DOWNLOAD_SHARE) * (1 - f);
      // Once a tenth is compiled, the build's own pace says more than the typical figure.
      const fromPace = f >= 0.1 ? (elapsed * (1 - f)) / f : fromTypical;
      const weight = Math.min(f / 0.3, 1);
      return {
        percent: Math.floor(100 * (DOWNLOAD_SHARE + (1 - DOWNLOAD_SHARE) * f)),
        secondsLeft: Math.max(
          Math.round(weight * fromPace + (1 - weight) * fromTypical),
          10,
        ),
      };
    }
  }
}

/**
 * The file's content at `now`. Items build one after the other, so an item's seconds left include
 * those of the items before it that are not done.
 */
export function statusFile(
  items: PrepareItem[],
  now: number,
  extra: { pid?: number; log?: string } = {},
): PrepareStatusFile {
  let before = 0;
  const out = items.map(item => {
    const p = progressOf(item, now);
    const secondsLeft = item.state === 'ready' ? 0 : before + p.secondsLeft;
    if (item.state !== 'failed') before = secondsLeft;
    return { ...item, percent: p.percent, secondsLeft };
  });
  return { updatedAt: new Date(now).toISOString(), ...extra, items: out };
}

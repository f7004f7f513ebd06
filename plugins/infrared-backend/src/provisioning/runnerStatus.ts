/*
 * Whether something can run OpenTofu Jobs yet, as a local environment says while it prepares it
 * (`infrared.provisioning.runnerStatusFile`: devenv's .data/devenv/prepare.json, written by
 * `devenv prepare` as it builds tofu). Without the key, or without the file, the runner is ready:
 * a real cluster's kubelets run the Jobs.
 */
import fs from 'node:fs';
import type { ProvisioningRunnerView } from '@infrared-clusters/plugin-infrared-common';

/** The status file's item for OpenTofu. */
const TOFU_ITEM = 'tofu';
/** `devenv prepare` rewrites the file every 10 s while it runs; older than this, it stopped. */
const STALE_MS = 60_000;

interface StatusFileItem {
  name?: string;
  title?: string;
  state?: string;
  percent?: number;
  secondsLeft?: number;
  error?: string;
}

const NOT_READY = (
  message: string,
  percent?: number,
  secondsLeft?: number,
): ProvisioningRunnerView => ({
  ready: false,
  message,
  ...(percent === undefined ? {} : { percent }),
  ...(secondsLeft === undefined ? {} : { secondsLeft }),
});

/** The runner's status from the file at `file` (read on every call: it changes while the portal runs). */
export function readRunnerStatus(
  file: string | undefined,
  now = Date.now(),
): ProvisioningRunnerView {
  if (!file) return { ready: true };
  let parsed: { updatedAt?: string; items?: StatusFileItem[] };
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return { ready: true };
  }
  const item = parsed.items?.find(i => i.name === TOFU_ITEM);
  if (!item || item.state === 'ready') return { ready: true };
  const title = item.title ?? 'OpenTofu';
  if (item.state === 'failed') {
    return NOT_READY(
      `${title} could not be prepared: ${
        item.error ?? 'its build failed'
      }. Start the portal again to retry.`,
    );
  }
  const updated = Date.parse(parsed.updatedAt ?? '');
  if (!Number.isFinite(updated) || now - updated > STALE_MS) {
    return NOT_READY(
      `${title} is not built, and nothing is preparing it (the background build stopped). Start the portal again to resume it.`,
    );
  }
  const seconds = Math.max(
    0,
    Math.round((item.secondsLeft ?? 0) - (now - updated) / 1000),
  );
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return NOT_READY(
    `${title} is being prepared (about ${minutes} min left)`,
    Math.min(Math.max(Math.round(item.percent ?? 0), 0), 99),
    seconds,
  );
}

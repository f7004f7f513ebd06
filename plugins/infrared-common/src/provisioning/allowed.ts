/**
 * Which images and module sources an OpenTofu Job may run: `provision.image` and `provision.source`
 * must be in `infrared.provisioning.allowedImages` and `allowedSources`. One rule for the API, the
 * register form and the executor (which refuses a Cluster written past the API, e.g. by kubectl).
 */
import type { FieldError } from '../fieldErrors';
import { DEFAULT_TOFU_IMAGE } from './fieldRules';
import type { ClusterTemplate } from './types';

/**
 * The images and module sources a Cluster may name in `provision.image` and `provision.source`.
 *
 * @public
 */
export interface ProvisioningAllowList {
  /** `infrared.provisioning.allowedImages`: exact image references. */
  images: readonly string[];
  /** `infrared.provisioning.allowedSources`: exact module sources. */
  sources: readonly string[];
}

/**
 * The allow-list when config sets none: the default OpenTofu image and the images of the
 * configured templates; the sources of the configured templates. (A template's own image and
 * source are always used when the Cluster leaves `provision.image`/`provision.source` empty.)
 *
 * @public
 */
export function defaultAllowList(
  templates: readonly Pick<ClusterTemplate, 'image' | 'source'>[],
  configured: { images?: readonly string[]; sources?: readonly string[] } = {},
): ProvisioningAllowList {
  const unique = (values: (string | undefined)[]) => [
    ...new Set(values.filter((v): v is string => !!v)),
  ];
  return {
    images:
      configured.images ??
      unique([DEFAULT_TOFU_IMAGE, ...templates.map(t => t.image)]),
    sources: configured.sources ?? unique(templates.map(t => t.source)),
  };
}

/**
 * `provision.image` and `provision.source` against the allow-list: each one set and not listed is
 * refused, naming the field and the config key. Empty or absent values are allowed (the template's
 * own image and source, or the defaults, are used).
 *
 * @public
 */
export function validateAllowedProvision(
  provision: unknown,
  allow: ProvisioningAllowList,
): FieldError[] {
  if (typeof provision !== 'object' || provision === null) return [];
  const { image, source } = provision as { image?: unknown; source?: unknown };
  const errors: FieldError[] = [];
  const check = (
    field: 'image' | 'source',
    value: unknown,
    allowed: readonly string[],
    key: string,
  ) => {
    if (typeof value !== 'string' || value === '') return; // the type rule reports non-strings
    if (allowed.includes(value)) return;
    errors.push({
      field: `provision.${field}`,
      message: `${JSON.stringify(
        value,
      )} is not in infrared.provisioning.${key}; leave provision.${field} out to use the template's`,
    });
  };
  check('image', image, allow.images, 'allowedImages');
  check('source', source, allow.sources, 'allowedSources');
  return errors;
}

import type { KubeClient } from './client';
import { KubeApiError } from './errors';
import { LightGetStatusError, LightGetTooLargeError } from './lightGet';

/**
 * The Accept header asking a LIST for PartialObjectMetadataList (metadata only, no data).
 *
 * @public
 */
export const PARTIAL_METADATA_LIST_ACCEPT =
  'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';

/** @public */
export interface PagedListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  /** Objects asked for per page; a page larger than the read bound is asked again at half. Default 500. */
  pageSize?: number;
  /** Each object's metadata only (a PartialObjectMetadataList): for reads that need no data or spec. */
  metadataOnly?: boolean;
  /** Bounds the whole LIST, every page included. Default: the client's timeout per page. */
  signal?: AbortSignal;
  /** The read bound of one page, in bytes (tests make it small). Default lightGet's. */
  maxPageBytes?: number;
}

/** @public */
export interface PagedList<T> {
  items: T[];
  /** The resourceVersion of the list's snapshot (every page shares it). */
  resourceVersion?: string;
}

/** A LIST that takes more pages than this is refused: 10 million objects at the smallest page size. */
const MAX_PAGES = 20_000;
/** A continue token that expired (410) starts the LIST again, this many times. */
const MAX_RESTARTS = 3;

interface ListAnswer<T> {
  items?: T[] | null;
  metadata?: { continue?: string; resourceVersion?: string };
}

/**
 * Every object of a LIST path, page by page (`limit` and `continue`): no answer holds the whole
 * collection, so no read bound turns a fleet's growth into a failed pass. A page larger than the
 * bound is asked again at half the size; an expired continue token (410) starts again.
 *
 * @public
 */
export async function listAllPages<T>(
  client: KubeClient,
  path: string,
  options: PagedListOptions = {},
): Promise<PagedList<T>> {
  for (let restart = 0; ; restart++) {
    try {
      return await readPages<T>(client, path, options);
    } catch (error) {
      const expired =
        error instanceof LightGetStatusError && error.code === 410;
      if (!expired || restart >= MAX_RESTARTS) throw error;
    }
  }
}

async function readPages<T>(
  client: KubeClient,
  path: string,
  options: PagedListOptions,
): Promise<PagedList<T>> {
  const items: T[] = [];
  let pageSize = options.pageSize ?? 500;
  let next: string | undefined;
  let resourceVersion: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = new URLSearchParams({ limit: String(pageSize) });
    if (options.labelSelector)
      query.set('labelSelector', options.labelSelector);
    if (options.fieldSelector)
      query.set('fieldSelector', options.fieldSelector);
    if (next) query.set('continue', next);
    let answer: ListAnswer<T>;
    try {
      answer = await client.getLight<ListAnswer<T>>(
        `${path}?${query}`,
        options.signal,
        {
          accept: options.metadataOnly
            ? PARTIAL_METADATA_LIST_ACCEPT
            : undefined,
          maxBytes: options.maxPageBytes,
        },
      );
    } catch (error) {
      if (error instanceof LightGetTooLargeError && pageSize > 1) {
        pageSize = Math.max(1, Math.floor(pageSize / 2));
        continue;
      }
      throw error;
    }
    // a PartialObjectMetadataList with no items says `items: null`
    for (const item of answer.items ?? []) items.push(item);
    resourceVersion ??= answer.metadata?.resourceVersion;
    next = answer.metadata?.continue || undefined;
    if (!next) return { items, resourceVersion };
  }
  throw new KubeApiError(
    0,
    'TooManyPages',
    `LIST ${path}: over ${MAX_PAGES} pages`,
  );
}

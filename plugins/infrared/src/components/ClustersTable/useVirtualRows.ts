import { useEffect, useRef } from 'react';
import {
  measureElement,
  observeElementRect,
  useVirtualizer,
} from '@tanstack/react-virtual';

/** A row's height before it is measured (a small table row with a chip, one line). */
export const ROW_ESTIMATE_PX = 53;
/** Rows rendered above and below the visible ones. */
export const OVERSCAN = 10;
/**
 * The view's size while the box has none (before layout; a test's DOM has no layout at all): the
 * rows of a 600 px view render rather than none.
 */
const NO_LAYOUT_RECT = { width: 1280, height: 600 };
/** The next page is asked for when the rendered rows come this close to the loaded ones' end. */
const LOAD_AHEAD = 25;

/**
 * The rows to render of `count` loaded ones: those in the scroll container's view and a few
 * around them (rows are measured as they render; a row never counts as 0 px, a view never as
 * 0 px high), with the space of
 * the others above and below. Asks for the next page when the view nears the end of the loaded
 * rows, and goes back to the top when the query (`resetKey`) changes.
 */
export function useVirtualRows(options: {
  count: number;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  resetKey: string;
}) {
  const { count, hasMore, loadingMore, onLoadMore, resetKey } = options;
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE_PX,
    overscan: OVERSCAN,
    initialRect: NO_LAYOUT_RECT,
    observeElementRect: (instance, onRect) =>
      observeElementRect(instance, rect =>
        onRect(rect.height > 0 ? rect : NO_LAYOUT_RECT),
      ),
    measureElement: (element, entry, instance) =>
      measureElement(element, entry, instance) || ROW_ESTIMATE_PX,
  });
  const rows = virtualizer.getVirtualItems();
  const last = rows.length ? rows[rows.length - 1] : undefined;

  useEffect(() => {
    if (hasMore && !loadingMore && last && last.index >= count - LOAD_AHEAD)
      onLoadMore();
  }, [hasMore, loadingMore, last, count, onLoadMore]);

  useEffect(() => {
    const element = scrollRef.current;
    if (element) element.scrollTop = 0;
  }, [resetKey]);

  return {
    scrollRef,
    rows,
    paddingTop: rows.length ? rows[0].start : 0,
    paddingBottom: last ? virtualizer.getTotalSize() - last.end : 0,
    measure: virtualizer.measureElement,
  };
}

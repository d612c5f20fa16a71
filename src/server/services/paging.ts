/** One page of a list: the rows, the total they come from, and where the page stands. */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/**
 * Reads one page: the total and the page's rows in parallel, with the window (skip, take) that the
 * 1-based page and its size give. Every paginated list of the product goes through here.
 */
export async function readPage<T>(
  at: { page: number; pageSize: number },
  count: () => Promise<number>,
  rows: (window: { skip: number; take: number }) => Promise<T[]>,
): Promise<Page<T>> {
  const [total, items] = await Promise.all([count(), rows({ skip: (at.page - 1) * at.pageSize, take: at.pageSize })]);
  return { items, total, page: at.page, pageSize: at.pageSize };
}

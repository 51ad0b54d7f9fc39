/** The distinct values, in the order each first appears. */
export const unique = <T>(values: Iterable<T>): T[] => [...new Set(values)];

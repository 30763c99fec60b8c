/** The TanStack Table v9 features the workbench's tables share: sorting and column filters. */
import {
  columnFilteringFeature,
  createFilteredRowModel,
  createSortedRowModel,
  filterFn_equalsString,
  filterFn_includesString,
  rowSortingFeature,
  sortFn_alphanumeric,
  sortFn_basic,
  sortFn_text,
  tableFeatures,
} from '@tanstack/react-table';

export const features = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { alphanumeric: sortFn_alphanumeric, basic: sortFn_basic, text: sortFn_text },
  columnFilteringFeature,
  filteredRowModel: createFilteredRowModel(),
  filterFns: { includesString: filterFn_includesString, equalsString: filterFn_equalsString },
});
export type Features = typeof features;

export function ariaSort(s: false | 'asc' | 'desc'): 'ascending' | 'descending' | 'none' {
  return s === 'asc' ? 'ascending' : s === 'desc' ? 'descending' : 'none';
}

import type { Header, RowData } from '@tanstack/react-table';
import type { Features } from '../lib/table';
import { ariaSort } from '../lib/table';

/** A sortable column header: a button (keyboard) inside a th carrying aria-sort. */
export function SortHeader<T extends RowData>({
  header,
  label,
}: {
  header: Header<Features, T, unknown>;
  label: string;
}) {
  const s = header.column.getIsSorted();
  return (
    <th scope="col" aria-sort={ariaSort(s)}>
      <button type="button" className="sort" onClick={header.column.getToggleSortingHandler()}>
        {label}
        <span aria-hidden="true">{s === 'asc' ? ' ▲' : s === 'desc' ? ' ▼' : ''}</span>
      </button>
    </th>
  );
}

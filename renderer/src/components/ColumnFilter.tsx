import { useState } from 'react';

/**
 * A labelled "all / one value" dropdown that filters one table column. The one filter
 * control of the findings and comparisons tables; `apply` sets the column's filter value
 * (undefined for "all").
 */
export function ColumnFilter({
  label,
  options,
  apply,
  testId,
}: {
  label: string;
  options: readonly string[];
  apply: (value: string | undefined) => void;
  testId?: string;
}) {
  const [value, setValue] = useState('');
  return (
    <label>
      {label}{' '}
      <select
        value={value}
        data-testid={testId}
        onChange={(e) => {
          setValue(e.target.value);
          apply(e.target.value || undefined);
        }}
      >
        <option value="">all</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}

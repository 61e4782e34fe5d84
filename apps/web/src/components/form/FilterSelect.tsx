/** One choice of a FilterSelect: `value` "" stands for no filter. */
export interface FilterOption<Value extends string> {
  value: Value | "";
  label: string;
}

/**
 * A list's filter: a small select named by `label` for screen readers, answering one of its own
 * options' values, so no cast is needed where it is read.
 */
export function FilterSelect<Value extends string>({
  label,
  value,
  options,
  onChange,
  className = "",
}: {
  label: string;
  value: Value | "";
  options: readonly FilterOption<Value>[];
  onChange: (value: Value | "") => void;
  className?: string;
}) {
  return (
    <select
      className={`select select-sm w-auto ${className}`}
      aria-label={label}
      value={value}
      onChange={(event) => {
        const chosen = options.find((option) => option.value === event.target.value);
        if (chosen) onChange(chosen.value);
      }}
    >
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
}

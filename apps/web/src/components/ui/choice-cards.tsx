/** One choice of a ChoiceCards group: its value, its name and a line about it. */
export interface Choice<T extends string> {
  value: T;
  label: string;
  description: string;
}

/** A radio group drawn as cards with a title and a description (a channel, a transport, a way to connect). */
export const ChoiceCards = <T extends string>({
  legend,
  name,
  choices,
  value,
  onChange,
}: {
  legend: string;
  name: string;
  choices: readonly Choice<T>[];
  value: T;
  onChange: (value: T) => void;
}) => (
  <fieldset>
    <legend className="mb-2 text-sm font-medium">{legend}</legend>
    <div className="grid gap-2 sm:grid-cols-2">
      {choices.map((choice) => (
        <label
          key={choice.value}
          className="flex cursor-pointer gap-3 rounded-lg border border-border p-3 has-[:checked]:border-primary"
        >
          <input
            type="radio"
            name={name}
            value={choice.value}
            checked={value === choice.value}
            onChange={() => onChange(choice.value)}
          />
          <span>
            <span className="block text-sm font-medium">{choice.label}</span>
            <span className="block text-xs text-muted">{choice.description}</span>
          </span>
        </label>
      ))}
    </div>
  </fieldset>
);
